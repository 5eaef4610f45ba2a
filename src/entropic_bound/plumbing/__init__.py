"""What keeps the workflow honest but holds no science: atomic writes and verified reads,
``entropic-bound verify``, typed config overrides, and each rule's derived code inputs."""
