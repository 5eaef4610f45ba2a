alias entropic-bound-paper-2026-12 xr0VTr3cxt0DCjC8htGoWSuD4RVX+T6/S7Xarcqu55EdjWT1QYeEpiOeIeyOVb2x//pdIhSonvJ8hmsKL06GBg==
