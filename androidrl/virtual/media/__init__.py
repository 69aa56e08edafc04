"""Media codecs of the virtual phone: ``h264`` encodes frames to H.264 and muxes MP4 (``screenrecord``)."""
