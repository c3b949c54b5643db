// The replay driver linked into every fuzz target when libFuzzer is not: each argument
// is a file or a folder of inputs, run once through LLVMFuzzerTestOneInput.  This is
// how the corpora and the regressions run in ctest (label fuzz-replay), with any
// compiler; the fuzz preset's tree replays them through libFuzzer itself (-runs=0).  In a folder, dot-files and
// dot-folders are not inputs: the `.keep` files that keep the empty regression folders
// in git would otherwise run as empty inputs.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  namespace fs = std::filesystem;
  std::size_t runs = 0;
  for (int i = 1; i < argc; ++i) {
    std::vector<fs::path> files;
    const fs::path arg = argv[i];
    if (fs::is_directory(arg)) {
      for (auto it = fs::recursive_directory_iterator(arg); it != fs::recursive_directory_iterator(); ++it) {
        if (it->path().filename().string().starts_with('.')) {
          it.disable_recursion_pending();
          continue;
        }
        if (it->is_regular_file()) files.push_back(it->path());
      }
    } else if (fs::exists(arg)) {
      files.push_back(arg);
    } else {
      std::fprintf(stderr, "replay: %s does not exist\n", argv[i]);
      return 2;
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      std::ifstream in(f, std::ios::binary);
      const std::vector<std::uint8_t> data{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      LLVMFuzzerTestOneInput(data.data(), data.size());
      ++runs;
    }
  }
  std::printf("replay: %zu inputs, 0 failures\n", runs);
  return 0;
}
