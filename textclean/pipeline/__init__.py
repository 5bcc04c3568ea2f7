"""The pipeline: probe, cleaner (grammar, redraw model), independent verifier, token counts, the gate.

Shared by the cleaner and the verifier (and the oracle): ``grammar`` (where a sequence starts and
ends), ``names`` (what it is called) and ``model`` (the display model's numbers). What a sequence
does is decided separately in ``cleaner``/``redraw`` and in ``verify``.

Nothing here imports the integrations or the measure tool; they import the pipeline.
"""
