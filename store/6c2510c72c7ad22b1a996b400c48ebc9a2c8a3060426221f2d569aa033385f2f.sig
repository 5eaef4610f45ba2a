alias entropic-bound-2026-12-07-session DoHH0Q+0DkHfnMtZTN+4ZZ54aoeGaOqo+kKcrFHakA1SD5G/9Kyc7vrIcAr/wZjPxdPcRRUhmPcDi3E56KGKCQ==
