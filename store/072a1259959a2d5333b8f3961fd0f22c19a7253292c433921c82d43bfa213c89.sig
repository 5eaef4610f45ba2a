alias entropic-bound-2026-12-07-session 0VJ5G+AwQzRv45aYT79V65DZdPDAXha5uYH9Ig7gde017VGd/ZVtnCNTVAx0Z9uq/e67x84ixaSkGs0qa+MiCg==
