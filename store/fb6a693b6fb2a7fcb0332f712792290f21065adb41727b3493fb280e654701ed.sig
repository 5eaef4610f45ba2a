entry entropic-bound-paper-2026-12 8xr/KCRucSxqFE+UpCwKyJQpxqiQm+mUx8ppLFiuph3OJL1yYr5+0Nudbfatb46CkJrmdsMaLeAmtf+I2XbNDw==
