"""Inputs of every experiment: the synthetic teachers (eqs. 8-9) and their token-mixing
matrices, the dataset files a cell reads, and the char corpora of App. B (fetch, R lazy-load
decoding, tokenization)."""
