"""The app's server, hardened: the kernel websocket and kernel manager classes that `make app`,
`make lessons-app` and `make classroom` register through their documented configuration points
(``powergrid_nb/jupyter_config/voila.json``, the Makefile). Nothing here changes another library at
run time: these are subclasses, chosen by configuration.

:class:`AppKernelConnection` (``Voila.kernel_websocket_connection_class``, and
``ServerApp.kernel_websocket_connection_class`` for JupyterLab)
    - refuses a kernel websocket that does not offer the ``v1.kernel.websocket.jupyter.org``
      subprotocol (HTTP 400 before the upgrade). With the older protocol, every kernel message with
      binary buffers would go through Voila's ``read_header_from_binary_message``, which reads an
      old-format frame as a v1 one and loops (and allocates) for about 10^17 offsets: the server
      stops answering and its memory grows until it is killed. JupyterLab's and Voila's pages offer v1;
    - closes a websocket whose v1 frame does not hold together (its offset count, or an offset,
      beyond the frame): jupyter_server's ``deserialize_msg_from_ws_v1`` would loop as long;
    - with ``hide_tracebacks`` (the app's configuration; Voila's ``--show_tracebacks=False`` covers
      only the notebook's cells), sends the page no traceback: an error from the kernel (``error``,
      ``execute_reply``) goes out with its traceback, type and text replaced by one generic
      sentence, and the kernel's stderr stream is not sent; both go to the server's log instead.

:class:`AppKernelManager` (``VoilaConfiguration.multi_kernel_manager_class``)
    jupyter_server's kernel manager with a cap: ``max_kernels`` kernels at most (starting ones
    included); the next page gets HTTP 503 "The table is full, try again later" and no kernel. Culling
    of idle kernels is jupyter_server's own (``MappingKernelManager.cull_idle_timeout`` ...),
    configured in voila.json.
"""

from __future__ import annotations

import re
import typing as t

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Bool, Integer

V1 = "v1.kernel.websocket.jupyter.org"
HIDDEN_ERROR = "An error occurred in the app. Its details are in the server's log."
ANSI = re.compile(r"\x1b\[[0-9;]*m")
TABLE_FULL = "The table is full, try again later"


def offered_subprotocols(header: str | None) -> list[str]:
    """The subprotocols a ``Sec-WebSocket-Protocol`` request header offers."""
    return [p.strip() for p in (header or "").split(",") if p.strip()]


def v1_frame_ok(frame: t.Any) -> bool:
    """Whether a kernel websocket frame is a well-formed v1 frame: bytes; an offset count that fits the
    frame (at least channel, header, parent header, metadata and content: 6 offsets); offsets that
    never decrease and stay within the frame. Checked before jupyter_server decodes it."""
    if not isinstance(frame, bytes | bytearray | memoryview):
        return False
    frame = bytes(frame)
    size = len(frame)
    if size < 8:
        return False
    count = int.from_bytes(frame[:8], "little")
    if count < 6 or 8 * (count + 1) > size:
        return False
    offsets = [int.from_bytes(frame[8 * (i + 1): 8 * (i + 2)], "little") for i in range(count)]
    steps = zip(offsets, offsets[1:], strict=False)
    return offsets[0] == 8 * (count + 1) and all(a <= b <= size for a, b in steps)


class AppKernelConnection(ZMQChannelsWebsocketConnection):
    """The kernel websocket of the app: v1 only, frames checked, no tracebacks to the page (see the
    module's docstring)."""

    hide_tracebacks = Bool(
        False, config=True,
        help="Send the page no traceback: a kernel's error message goes out with a generic text, its "
             "stderr stream not at all; both are logged by the server instead.")

    async def prepare(self) -> None:
        """Refuse (HTTP 400, before the websocket upgrade) a client that does not offer the v1
        subprotocol, then prepare as jupyter_server does."""
        offered = offered_subprotocols(self.websocket_handler.request.headers.get("Sec-WebSocket-Protocol"))
        if V1 not in offered:
            self.log.warning("Refused a kernel websocket without the %s subprotocol (offered: %s)",
                             V1, offered or "none")
            raise web.HTTPError(400, f"this server speaks the {V1} kernel "
                                     f"websocket protocol only")
        await super().prepare()

    def handle_incoming_message(self, incoming_msg: t.Any) -> None:
        """A message from the page: a frame that is not well-formed v1 closes the websocket."""
        if self.subprotocol != V1 or not v1_frame_ok(incoming_msg):
            self.log.warning("Closed a kernel websocket of kernel %s: a malformed frame", self.kernel_id)
            self.websocket_handler.close(1003, "malformed kernel message")
            return
        super().handle_incoming_message(incoming_msg)

    def handle_outgoing_message(self, stream: t.Any, outgoing_msg: list[t.Any]) -> None:
        """A message from the kernel: with ``hide_tracebacks``, an error goes out without its
        traceback and a stderr stream not at all (both logged here)."""
        if self.hide_tracebacks:
            outgoing_msg = self._without_tracebacks(outgoing_msg)
            if not outgoing_msg:
                return
        super().handle_outgoing_message(stream, outgoing_msg)

    def _without_tracebacks(self, msg_list: list[t.Any]) -> list[t.Any]:
        """``msg_list`` (a kernel message's parts as received, identities first) with the traceback,
        type and text of an error (an ``error`` message, an ``execute_reply`` of status "error")
        replaced, or [] for a stderr stream; other messages unchanged."""
        idents, parts = self.session.feed_identities(msg_list)
        if len(parts) < 5:  # signature, header, parent header, metadata, content
            return msg_list
        header = self.session.unpack(_bytes(parts[1]))
        kind = header.get("msg_type")
        if kind not in ("error", "stream", "execute_reply"):
            return msg_list
        content = self.session.unpack(_bytes(parts[4]))
        if kind == "execute_reply" and content.get("status") != "error":
            return msg_list
        if kind == "stream":
            if content.get("name") != "stderr":
                return msg_list
            self.log.warning("Kernel %s stderr (not sent to the page): %s", self.kernel_id,
                             ANSI.sub("", str(content.get("text", ""))).rstrip())
            return []
        self.log.warning("Kernel %s error (not sent to the page):\n%s", self.kernel_id,
                         ANSI.sub("", "\n".join(content.get("traceback") or [])) or
                         f"{content.get('ename')}: {content.get('evalue')}")
        content = {**content, "ename": "Error", "evalue": HIDDEN_ERROR, "traceback": [HIDDEN_ERROR]}
        parts = list(parts)
        parts[4] = self.session.pack(content)
        parts[0] = self.session.sign(parts[1:5])  # the server's session signs what it relays
        return [*idents, b"<IDS|MSG>", *parts]


def _bytes(part: t.Any) -> bytes:
    """A message part as bytes (zmq frames and memoryviews included)."""
    return part.bytes if hasattr(part, "bytes") else bytes(part)


class AppKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager, at most ``max_kernels`` kernels: the next start is refused with
    HTTP 503 ("The table is full, try again later")."""

    max_kernels = Integer(
        0, config=True,
        help="The most kernels at once, starting ones included (0: no cap). The next page load gets "
             "HTTP 503, 'The table is full, try again later', and no kernel.")

    def __init__(self, **kwargs: t.Any) -> None:
        super().__init__(**kwargs)
        self.starting: set[str] = set()

    def kernels_held(self) -> int:
        """The kernels running or being started."""
        return len(set(self.list_kernel_ids()) | self.starting)

    async def start_kernel(self, *, kernel_id: str | None = None, path: t.Any = None,  # type: ignore[override]
                           **kwargs: t.Any) -> str:
        if kernel_id is not None and kernel_id in self:
            return await super().start_kernel(kernel_id=kernel_id, path=path, **kwargs)
        if self.max_kernels > 0 and self.kernels_held() >= self.max_kernels:
            self.log.warning("Refused a new kernel: %d kernels, the cap (AppKernelManager.max_kernels)",
                             self.kernels_held())
            raise web.HTTPError(503, "%s: this server runs at most %d games at once.", TABLE_FULL,
                                self.max_kernels, reason=TABLE_FULL)
        kernel_id = kernel_id or self.new_kernel_id()
        self.starting.add(kernel_id)
        try:
            return await super().start_kernel(kernel_id=kernel_id, path=path, **kwargs)
        finally:
            self.starting.discard(kernel_id)

