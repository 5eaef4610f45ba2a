entry entropic-bound-paper-2026-12 +qxfNk0/cND8FJSyiZ3A12Ord83+WbbrRF86wzcPkyFdScVxQIc8t8bNNrxLt/DNtM1C3QZ/gatg9EblxnR2DA==
