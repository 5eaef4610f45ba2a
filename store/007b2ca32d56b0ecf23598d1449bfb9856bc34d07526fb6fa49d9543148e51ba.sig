entry entropic-bound-paper-2026-12 LwrPN4+54uT+PlsNEMVHA6NQ5usaxglVlK+PUU/04MmoxUcBCeNX+XxrZ5Wb2yeAma15qAJ++WQpHdHmgwLHBQ==
