"""What runs inside gdb (the extension) and what drives gdb (capture)."""
