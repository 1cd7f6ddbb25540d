"""What every game reads card files with: bounded reading of untrusted
folders, one-line problems, printable text, schema docs."""
