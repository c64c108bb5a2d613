"""Names that libraries TF1-era programs used have since removed, and what they are now: one table,
read by `uai-run` (served at import time, uai_run/_libraries.py) and by uai-migrate's rules (rewritten).

  RENAMED  {module: {old name: new name}}  the new name is the same object the old one was
  RULES    {module: uai-migrate rule id}    the rule whose rewrite uai-run's alias stands for

Pillow 10 removed the resampling aliases `Image.ANTIALIAS` / `LINEAR` / `CUBIC`; Pillow 2.7 to 9.5
define each as the filter it maps to, so the new name keeps the behaviour. TF1-era input pipelines
resize with them (tflearn 0.5.0's data_utils does), and the Pillow TF 2.21's tensorboard installs
has none of them.
"""

RENAMED = {"PIL.Image": {"ANTIALIAS": "LANCZOS", "LINEAR": "BILINEAR", "CUBIC": "BICUBIC"}}
RULES = {"PIL.Image": "pillow-constants"}
