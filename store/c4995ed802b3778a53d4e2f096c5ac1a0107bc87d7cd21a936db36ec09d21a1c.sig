entry entropic-bound-paper-2026-12 AUkMx1Ucy0TAmjvm7PxN+sv1DH4PO7r/3gxJLmFfzZbq9PrQRMRgdmfjT+nnkfkrj4YikLITith/6Bol4pxXCQ==
