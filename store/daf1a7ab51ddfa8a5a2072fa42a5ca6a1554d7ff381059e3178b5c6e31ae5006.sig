alias entropic-bound-migration-2026-12-rules /PoMVPOvr4LC3f9DVo20OErZHa7LFjyT2no/rkWuqWV0ICiyLTlfS3EMrJ6Fq++9M7xjcI88fVQB7uENlO7fAA==
