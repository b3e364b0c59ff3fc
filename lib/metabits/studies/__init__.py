"""Real-data studies: the Confidence Database (Rahnev et al., 2020)."""

from .confidence_database import (confidence_database_citation, confidence_database_tables,
                                  read_confidence_database)

__all__ = ["confidence_database_citation", "confidence_database_tables",
           "read_confidence_database"]
