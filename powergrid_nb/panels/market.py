"""The plant-market tab: the market's HTML (:func:`powergrid_nb.views.plants_html`) in a widget that
replaces it in place, and sends a click on a card of the current market back to the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from powergrid_nb.views.market import MARKET_CSS

_MARKET_JS = """
export default {
  render({ model, el }) {
    const draw = () => { el.innerHTML = model.get('html'); };
    draw();
    model.on('change:html', draw);
    el.addEventListener('click', event => {
      const card = event.target instanceof Element ? event.target.closest('[data-plant]') : null;
      if (card && el.contains(card)) model.send({ plant: Number(card.dataset.plant) });
    });
    return () => model.off('change:html', draw);
  },
};
"""


class MarketView(anywidget.AnyWidget):
    """The plant market as cards; ``on_plant(n)`` is called when a card of the current market is
    clicked (``n``: its number; anything else a page sends is ignored)."""

    _esm = _MARKET_JS
    _css = MARKET_CSS  # once in the page: the cards' HTML comes without it (plants_html(style=False))
    html = traitlets.Unicode("").tag(sync=True)

    def __init__(self, html: str, on_plant: Callable[[int], None]) -> None:
        super().__init__(html=html)
        self.add_class("pg-market-view")
        self._on_plant = on_plant
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        plant = content.get("plant") if isinstance(content, dict) else None
        if type(plant) is int:  # a page is public: only a card's number is taken (not bool, not text)
            self._on_plant(plant)
