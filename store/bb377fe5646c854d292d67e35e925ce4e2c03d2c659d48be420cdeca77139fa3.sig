entry entropic-bound-paper-2026-12 JtMyh+CwHmQMNI+NbBFRKcHJzNNsetifhHgvC8f0gK5vQ5b/En6/oA6iYPBHAphuU7yV63u5ZLN8gH2l7KNoCA==
