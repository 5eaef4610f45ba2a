alias entropic-bound-migration-2026-12-rules b7/ka40VuAGblzI4Mg+bQu2Zcirkl8R3UMd/y8Pwb+s3hWdS3uOyzbGKwp61LqmBEb+W1uCvYpvYBqm2ZUngBw==
