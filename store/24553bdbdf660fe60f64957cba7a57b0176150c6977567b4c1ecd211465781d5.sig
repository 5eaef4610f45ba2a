alias entropic-bound-2026-12-07-session e6iS20FwHffxNDxoGZE7pZ0eiERQ5bRhoxWWf79NcyJ//Ac3f/1JRsnx0VFMsbxgERM/PC2Zht/YrxAZhuQ9Dw==
