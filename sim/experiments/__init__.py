"""Designed experiments on common random numbers: what-if, sensitivity, ablation, sweeps, the
field's matrix, card verdicts against par and their calibration."""
