entry entropic-bound-2026-12-07-session fLDN8/+/iEOeLGiZkEV4d9CPw+3j5p7G6i8GcdC5MipOCrIzdtM197LBHQoKCQqiDEaEqfuoXcaUqpZgyjIcAQ==
