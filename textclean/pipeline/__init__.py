"""The pipeline: probe, cleaner (``clean``: its line and screen models), independent verifier, token counts, the gate.

Shared by the cleaner and the verifier: ``grammar`` (where a sequence starts and ends), ``names``
(what it is called) and ``model`` (the display model's numbers). The oracle shares ``names`` and
``model`` only: it reads sequences with its own byte table, so that a grammar bug cannot hide from it. What a sequence
does is decided separately in ``clean`` and in ``verify``.

Nothing here imports the integrations or the measure tool; they import the pipeline.
"""
