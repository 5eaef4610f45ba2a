entry entropic-bound-paper-2026-12 MfPrKYYz8civs7ulb5PkR/WRh20RxRwV3l9q6G9JJLaXWivwPs5oFUz+aS7hC/shMTwxL5ER2r7/IxBYS3+fAg==
