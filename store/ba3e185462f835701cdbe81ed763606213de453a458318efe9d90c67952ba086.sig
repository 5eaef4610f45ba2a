alias entropic-bound-migration-2026-12-rules WQXmZTDL/1KPKpUC7BxmM/zfqPRR3zwus4bDu7IYP2ud+NUdbf++svm/3kX9eCvJNboLveoT8TnIAkW3dNIaDw==
