"""The exercises of each lesson: ``lessonN.EXERCISES``, read by :mod:`powergrid_nb.lessons.checker`."""
