alias entropic-bound-2026-12-07-session Ixmu67hrh4z+KdXSR6Tr/j60gicXi3+0qc6ncNua8fBHVD5+HXSdS7X4B8vmiK4z1/Zk2yg3ArAJxl/lseIKBw==
