"""Frames and unwinders: device frames stitched to the host stack that
launched them, waiting lanes' frames, and the frame filter that names the
kernel a host frame launches."""
