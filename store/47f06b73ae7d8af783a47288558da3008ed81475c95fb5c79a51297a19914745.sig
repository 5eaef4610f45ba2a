alias entropic-bound-2026-12-07-session mqhfRva0wbTPrt443/YigA3fWfhvzvAhD47KbDoVQ5bXS/lumIBbkqu+XtuSyjd4KUaz5V4qsWRpAHTNdS+JCA==
