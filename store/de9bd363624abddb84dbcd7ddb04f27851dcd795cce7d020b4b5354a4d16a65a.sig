alias entropic-bound-2026-12-07-session z+oGX8ZqGct+nDxF+7wTpekqUPydf4YsSIfVhjG4YieE736g1ToXsrhIEmopy5k/GOrRjNLd1FtRnnX41KkjBA==
