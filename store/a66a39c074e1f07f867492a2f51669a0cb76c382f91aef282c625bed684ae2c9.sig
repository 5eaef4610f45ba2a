entry entropic-bound-paper-2026-12 D3jsjlMc7laIMy747+I6iuQGms+q02pxVSEuLbK0EUgtrpDAs/OGgImoD3qjlC3Br6q9JSvMq2dgRVruD+RqDg==
