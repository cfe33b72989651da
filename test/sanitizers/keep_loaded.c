/* Preloaded in sanitizer runs only: dlclose does nothing, so that the MPI library's plugins
 * (Open MPI's mca_*.so, unloaded at MPI_Finalize) are still mapped when LeakSanitizer reports
 * at exit, their frames have names, and lsan.supp can attribute their allocations to them. */
int dlclose(void* handle) {
  (void)handle;
  return 0;
}
