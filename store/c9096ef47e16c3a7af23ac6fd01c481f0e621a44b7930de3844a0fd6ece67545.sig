entry entropic-bound-paper-2026-12 ruwo/DLIKFZHVz8Em+FQRnNST+0Gtd3CjUHTOHUr7cjPoTcisVd0sssX1VOaWro/XHLQ/AxEroV3FQ3suA6pCQ==
