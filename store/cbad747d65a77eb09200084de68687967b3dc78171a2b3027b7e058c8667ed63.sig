alias entropic-bound-paper-2026-12 LBjoWdtrcTIEsSWg6tyGeJOL0ps/TpbEhPTYXa8I3beoxmumdcyLwWTYVyYkCYNaUC+bvwEJyhVxRU/iiHN/Bw==
