alias entropic-bound-migration-2026-12-rules HPDm/DnMscDtIFkG+cl7vxKPJb1UP6uMHizp2RaaIe488e2GUl/Cf37+rZHR/TwLB9pwaVDRdn/27TjFG/iSBA==
