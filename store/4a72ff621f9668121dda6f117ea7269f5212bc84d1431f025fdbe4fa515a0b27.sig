entry entropic-bound-2026-12-07-session 0+CnBy+3rQhb+jkvi+HrfGAEI5VGZdZzpcDiyYmWL4eFWNe/tgtobq94xMgYJ/a12LevM0X6YZMK0dyFXZaxDg==
