entry entropic-bound-paper-2026-12 6qY5Hf7D6sUp37VgaJnUB//oBni8qtZ9JBNB6NslVX+j88UXvNwDbXXDPVqm6TGiZ/F1wqYIWJhN7wep9Ge5DQ==
