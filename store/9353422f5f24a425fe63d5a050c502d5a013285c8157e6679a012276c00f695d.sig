alias entropic-bound-migration-2026-12-e6 lXn+l/Evm/1u895TLIQcnY6chmc9S6k9AW2BgDqp5Jo+M3mL/wRwp5zNyn30WzNfypiQluOELyRB9FxFFGI8DQ==
