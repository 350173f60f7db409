"""Resource files: policies, prompts, icons, translations."""

from pathlib import Path

RESOURCES_DIR = Path(__file__).resolve().parent
