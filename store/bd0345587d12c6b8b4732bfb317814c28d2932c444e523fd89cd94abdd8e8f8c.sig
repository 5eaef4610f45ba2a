alias entropic-bound-paper-2026-12 y5RnN5xi/oLa6e8iPRS3TDTsT5DpLwoA/adsgzue24qSkXaW7/Sp7KHG0jtH6lM4uP37cVLgR9G5R4wwaR/3Bw==
