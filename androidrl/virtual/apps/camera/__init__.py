"""``com.android.camera2`` (Camera): a viewfinder of a seeded scene and a shutter that saves to DCIM/Camera."""
