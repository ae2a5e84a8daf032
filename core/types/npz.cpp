// SPDX-License-Identifier: Apache-2.0
#include "core/types/npz.h"

#include <array>
#include <memory>
#include <unordered_set>

#include "core/diag/error.h"
#include "core/types/npy.h"
#include "core/types/zip.h"
#include "core/util/atomic_file.h"
#include "core/util/mapped_file.h"

namespace onnxtool {

namespace {

constexpr std::string_view kSuffix = ".npy";
// A stored member's content starts 64-byte aligned and so does its .npy data (numpy pads the
// header to 64 bytes), which lets read_npz view the elements in the mapped file.
constexpr std::size_t kDataAlign = 64;

std::string quoted_location(std::string_view what, std::string_view name) {
  return std::string(what) + " \"" + std::string(name) + "\"";
}

// owner: keeps `bytes` alive so stored members may be viewed in place; null copies them.
std::vector<NamedTensor> decode_npz(std::string_view bytes, std::shared_ptr<const void> owner,
                                    const std::string& file) {
  std::vector<NamedTensor> out;
  for (const ZipEntry& e : read_zip_directory(bytes, file)) {
    const std::string location = quoted_location("member", e.name);
    if (!e.name.ends_with(kSuffix))
      throw_invalid("npz.not-npy", file, location,
                    "npz: the member is not a .npy file; an .npz holds only NAME.npy members");
    const ZipContent c = read_zip_entry(bytes, owner, e, file);
    out.push_back({e.name.substr(0, e.name.size() - kSuffix.size()),
                   decode_npy(c.bytes, c.owner, file, location)});
  }
  return out;
}

// Names that read_npz would reject are refused here too, so every archive we write reads back.
void check_names(const std::vector<NamedTensor>& tensors, const std::string& file) {
  std::unordered_set<std::string_view> seen;
  for (const NamedTensor& t : tensors) {
    const std::string location = quoted_location("tensor", t.name);
    if (auto why = unsafe_zip_name(t.name + std::string(kSuffix)))
      throw_invalid("npz.unsafe-name", file, location,
                    "npz: the name cannot be an archive member name: " + *why);
    if (!seen.insert(t.name).second)
      throw_invalid("npz.duplicate-name", file, location,
                    "npz: two tensors have this name; an .npz holds each name once");
  }
}

void write_members(ZipWriter& zip, const std::vector<NamedTensor>& tensors, bool compress,
                   const std::string& file) {
  check_names(tensors, file);
  for (const NamedTensor& t : tensors) {
    const NpyParts parts = encode_npy(t.tensor, file, quoted_location("tensor", t.name));
    const std::array<std::string_view, 2> pieces = {parts.header, parts.payload()};
    zip.add(t.name + std::string(kSuffix), pieces, compress, kDataAlign);
  }
  zip.finish();
}

}  // namespace

std::vector<NamedTensor> read_npz(const std::filesystem::path& path) {
  auto file = MappedFile::open(path);
  const std::string_view bytes = file->view();
  return decode_npz(bytes, std::move(file), path.string());
}

std::vector<NamedTensor> parse_npz(std::string_view bytes, const std::string& name_for_errors) {
  return decode_npz(bytes, nullptr, name_for_errors);
}

void write_npz(const std::filesystem::path& path, const std::vector<NamedTensor>& tensors,
               bool compress) {
  AtomicFile f(path);
  ZipWriter zip([&f](std::string_view bytes) { f.write(bytes); });
  write_members(zip, tensors, compress, path.string());
  f.commit();
}

std::string serialize_npz(const std::vector<NamedTensor>& tensors, bool compress) {
  std::string out;
  ZipWriter zip([&out](std::string_view bytes) { out += bytes; });
  write_members(zip, tensors, compress, "");
  return out;
}

}  // namespace onnxtool
