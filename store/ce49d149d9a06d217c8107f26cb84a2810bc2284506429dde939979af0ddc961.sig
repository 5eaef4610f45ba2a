alias entropic-bound-paper-2026-12 arlfEkbPr+WRRsU26Nr2qU8IVIaYxoWE/672AaRW74NWW/h1AirQwV3pXmXCb71W05Ku+c+9Ahl5HJu3p9wODA==
