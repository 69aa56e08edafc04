"""``com.android.gallery3d`` (Gallery): albums from MediaStore, a photo grid, a full-screen photo."""
