alias entropic-bound-paper-2026-12 O/0V05o63C8VsabB08cnScnCbKbn4QRgF156lUAvd3yf14OSjoBp62+MpOTuNzZu+0mg5C+T3iEBMDZkd6ukBQ==
