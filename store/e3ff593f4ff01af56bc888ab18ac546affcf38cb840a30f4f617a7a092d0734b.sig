alias entropic-bound-2026-12-07-session WfK99no+LWPeRyzha5xrUKEBn3UT1faOtw3b/Szl0ar/15D9Odsrul3V17GtbApf+VFtvQ0p/uMhA8VBDq9DCQ==
