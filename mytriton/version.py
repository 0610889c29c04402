"""mytriton's version and where its modules live: what the caches key on, on the ground floor so
the runtime reads them without importing the package's top."""

from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"

#: the folder of mytriton's modules (the disk cache fingerprints their sources)
PACKAGE_DIR = Path(__file__).parent
