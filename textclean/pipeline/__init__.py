"""The pipeline: probe, cleaner (grammar, redraw model), independent verifier, token counts, the gate.

Nothing here imports the integrations or the measure tool; they import the pipeline.
"""
