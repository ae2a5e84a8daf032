// SPDX-License-Identifier: Apache-2.0
#include "core/types/zip.h"

#define ZLIB_CONST
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <type_traits>
#include <unordered_set>

#include "core/diag/error.h"
#include "core/types/tensor.h"

namespace onnxtool {

namespace {

constexpr uint32_t kLocalSig = 0x04034b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kEndSig = 0x06054b50;
constexpr uint32_t kEnd64Sig = 0x06064b50;
constexpr uint32_t kLocator64Sig = 0x07064b50;
constexpr uint64_t kLocalSize = 30;
constexpr uint64_t kCentralSize = 46;
constexpr uint64_t kEndSize = 22;
constexpr uint64_t kEnd64Size = 56;
constexpr uint64_t kLocator64Size = 20;
constexpr uint64_t kMaxComment = 0xFFFF;
constexpr uint16_t kZip64ExtraId = 0x0001;
constexpr uint16_t kAlignExtraId = 0xD935;  // the id Android's zipalign uses for padding
constexpr uint64_t kMax16 = 0xFFFF;
constexpr uint64_t kMax32 = 0xFFFFFFFF;
constexpr uint16_t kFlagEncrypted = 1 << 0;
constexpr uint16_t kFlagStrongEncryption = 1 << 6;
constexpr uint16_t kFlagUtf8 = 1 << 11;
constexpr uint16_t kStored = 0;
constexpr uint16_t kDeflated = 8;
constexpr uint16_t kAesEncrypted = 99;
constexpr uint16_t kVersion = 20;    // 2.0: deflate
constexpr uint16_t kVersion64 = 45;  // 4.5: zip64
constexpr uint16_t kUnixHost = 3 << 8;
constexpr uint32_t kRegularFile644 = 0100644u << 16;
// 1980-01-01 00:00, the earliest DOS date: fixed so the same tensors give the same bytes.
constexpr uint16_t kDosTime = 0;
constexpr uint16_t kDosDate = (1 << 5) | 1;
// Deflate expands at most about 1032:1; a member declaring more is lying (a zip bomb).
constexpr uint64_t kMaxDeflateRatio = 1032;
// zlib counts in 32-bit unsigned ints; feed it at most this much at a time.
constexpr std::size_t kZlibChunk = std::size_t{1} << 30;

[[noreturn]] void bad_zip(const std::string& file, const std::string& message) {
  throw_invalid("npz.bad-zip", file, "", "zip: " + message);
}

std::string member(std::string_view name) {
  return "member \"" + std::string(name) + "\"";
}

std::string hex32(uint32_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s = "0x";
  for (int shift = 28; shift >= 0; shift -= 4) s += kDigits[(v >> shift) & 15];
  return s;
}

uint64_t le(std::string_view s, uint64_t offset, std::size_t n) {
  uint64_t v = 0;
  for (std::size_t k = 0; k < n; ++k)
    v |= uint64_t{static_cast<unsigned char>(s[static_cast<std::size_t>(offset) + k])} << (8 * k);
  return v;
}

// The archive with bounds checks: every read is preceded by need().
class Archive {
 public:
  Archive(std::string_view bytes, const std::string& file) : s_(bytes), file_(file) {}

  uint64_t size() const { return s_.size(); }
  const std::string& file() const { return file_; }

  // Throws unless [offset, offset + n) lies below limit.
  void need(uint64_t offset, uint64_t n, uint64_t limit, const std::string& what) const {
    if (offset > limit || n > limit - offset)
      bad_zip(file_, what + " (" + std::to_string(n) + " bytes at offset " +
                         std::to_string(offset) + ") runs past " +
                         (limit == size() ? std::string("the end of the file")
                                          : "offset " + std::to_string(limit)));
  }
  uint16_t u16(uint64_t offset) const { return static_cast<uint16_t>(le(s_, offset, 2)); }
  uint32_t u32(uint64_t offset) const { return static_cast<uint32_t>(le(s_, offset, 4)); }
  uint64_t u64(uint64_t offset) const { return le(s_, offset, 8); }
  std::string_view sub(uint64_t offset, uint64_t n) const {
    return s_.substr(static_cast<std::size_t>(offset), static_cast<std::size_t>(n));
  }

 private:
  std::string_view s_;
  const std::string& file_;
};

// ---- the end records --------------------------------------------------------------------------

struct Directory {
  uint64_t count = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint64_t end = 0;  // where the records after the directory start
};

// The end-of-central-directory record: the last signature whose comment fits in the file.
uint64_t find_end_record(const Archive& a) {
  if (a.size() < kEndSize)
    bad_zip(a.file(), "the file is " + std::to_string(a.size()) +
                          " bytes, too short for a zip archive (an .npz is one)");
  const uint64_t last = a.size() - kEndSize;
  const uint64_t lowest = last > kMaxComment ? last - kMaxComment : 0;
  for (uint64_t off = last + 1; off-- > lowest;)
    if (a.u32(off) == kEndSig && a.u16(off + 20) <= a.size() - off - kEndSize) return off;
  bad_zip(a.file(), "no end-of-central-directory record; not a zip archive (an .npz is one)");
}

[[noreturn]] void multi_disk(const Archive& a) {
  bad_zip(a.file(), "the archive spans several disks; onnxtool reads single-file archives");
}

Directory read_end64(const Archive& a, uint64_t locator) {
  const uint32_t disk_of_record = a.u32(locator + 4);
  const uint64_t record = a.u64(locator + 8);
  const uint32_t disks = a.u32(locator + 16);
  if (disk_of_record != 0 || disks > 1) multi_disk(a);
  a.need(record, kEnd64Size, locator, "the zip64 end record");
  if (a.u32(record) != kEnd64Sig)
    bad_zip(a.file(), "the zip64 locator points at offset " + std::to_string(record) +
                          ", where there is no zip64 end record");
  if (a.u32(record + 16) != 0 || a.u32(record + 20) != 0 ||
      a.u64(record + 24) != a.u64(record + 32))
    multi_disk(a);
  return {a.u64(record + 32), a.u64(record + 48), a.u64(record + 40), record};
}

Directory read_directory_location(const Archive& a) {
  const uint64_t end = find_end_record(a);
  Directory d;
  if (end >= kLocator64Size && a.u32(end - kLocator64Size) == kLocator64Sig) {
    d = read_end64(a, end - kLocator64Size);
  } else {
    if (a.u16(end + 4) != 0 || a.u16(end + 6) != 0 || a.u16(end + 8) != a.u16(end + 10))
      multi_disk(a);
    d = {a.u16(end + 10), a.u32(end + 16), a.u32(end + 12), end};
  }
  a.need(d.offset, d.size, d.end, "the central directory");
  if (d.count > d.size / kCentralSize)
    bad_zip(a.file(), "the end record counts " + std::to_string(d.count) +
                          " members, more than a central directory of " + std::to_string(d.size) +
                          " bytes holds");
  return d;
}

// ---- the central directory --------------------------------------------------------------------

struct RawEntry {
  ZipEntry entry;
  uint16_t flags = 0;
  uint64_t header_offset = 0;
  uint32_t disk = 0;
};

// Replaces the 32-bit fields saturated at 0xFFFFFFFF with their zip64 extra values, which come
// in a fixed order and only for the saturated fields.
void apply_zip64_extra(std::string_view extra, RawEntry& r, const std::string& file) {
  std::size_t p = 0;
  while (extra.size() - p >= 4) {
    const auto id = static_cast<uint16_t>(le(extra, p, 2));
    const auto len = static_cast<std::size_t>(le(extra, p + 2, 2));
    p += 4;
    if (len > extra.size() - p)
      bad_zip(file, member(r.entry.name) + ": an extra field runs past the extra data");
    if (id == kZip64ExtraId) {
      std::size_t q = p;
      const auto take = [&](auto& field, std::size_t width) {
        if (q + width > p + len)
          bad_zip(file, member(r.entry.name) + ": the zip64 extra field is too short");
        field = static_cast<std::remove_reference_t<decltype(field)>>(le(extra, q, width));
        q += width;
      };
      if (r.entry.size == kMax32) take(r.entry.size, 8);
      if (r.entry.compressed_size == kMax32) take(r.entry.compressed_size, 8);
      if (r.header_offset == kMax32) take(r.header_offset, 8);
      if (r.disk == kMax16) take(r.disk, 4);
    }
    p += len;
  }
}

std::string_view method_name(uint16_t method) {
  switch (method) {
    case 1:
      return " (shrink)";
    case 6:
      return " (implode)";
    case 9:
      return " (deflate64)";
    case 12:
      return " (bzip2)";
    case 14:
      return " (lzma)";
    case 93:
      return " (zstandard)";
    case 95:
      return " (xz)";
    case 98:
      return " (ppmd)";
    default:
      return "";
  }
}

void check_entry(const RawEntry& r, const std::string& file) {
  const ZipEntry& e = r.entry;
  if ((r.flags & (kFlagEncrypted | kFlagStrongEncryption)) || e.method == kAesEncrypted)
    throw_invalid("npz.encrypted", file, member(e.name),
                  "zip: the member is encrypted; onnxtool reads only unencrypted archives");
  if (e.method != kStored && e.method != kDeflated)
    throw_invalid("npz.unsupported-compression", file, member(e.name),
                  "zip: compression method " + std::to_string(e.method) +
                      std::string(method_name(e.method)) +
                      " is not supported; onnxtool reads stored (0) and deflated (8) members");
  if (r.disk != 0)
    bad_zip(file, member(e.name) + " is on another disk; onnxtool reads single-file archives");
  if (auto why = unsafe_zip_name(e.name))
    throw_invalid("npz.unsafe-name", file, member(e.name),
                  "zip: the member name is unsafe: " + *why);
  if (e.method == kStored && e.compressed_size != e.size)
    bad_zip(file, member(e.name) + " is stored but its sizes differ (" +
                      std::to_string(e.compressed_size) + " and " + std::to_string(e.size) + ")");
}

RawEntry read_central_entry(const Archive& a, uint64_t& pos, const Directory& d, uint64_t index) {
  const uint64_t end = d.offset + d.size;
  const std::string what = "central directory entry " + std::to_string(index);
  a.need(pos, kCentralSize, end, what);
  if (a.u32(pos) != kCentralSig)
    bad_zip(a.file(), what + " at offset " + std::to_string(pos) + " has no signature");
  RawEntry r;
  r.flags = a.u16(pos + 8);
  r.entry.method = a.u16(pos + 10);
  r.entry.crc32 = a.u32(pos + 16);
  r.entry.compressed_size = a.u32(pos + 20);
  r.entry.size = a.u32(pos + 24);
  const uint64_t name_len = a.u16(pos + 28), extra_len = a.u16(pos + 30);
  const uint64_t comment_len = a.u16(pos + 32);
  r.disk = a.u16(pos + 34);
  r.header_offset = a.u32(pos + 42);
  a.need(pos + kCentralSize, name_len + extra_len + comment_len, end, what);
  r.entry.name = std::string(a.sub(pos + kCentralSize, name_len));
  apply_zip64_extra(a.sub(pos + kCentralSize + name_len, extra_len), r, a.file());
  pos += kCentralSize + name_len + extra_len + comment_len;
  return r;
}

// Checks the local header agrees with the directory; returns where the member's bytes start.
uint64_t read_local_header(const Archive& a, const RawEntry& r, uint64_t limit) {
  const ZipEntry& e = r.entry;
  const std::string what = "the local header of " + member(e.name);
  a.need(r.header_offset, kLocalSize, limit, what);
  if (a.u32(r.header_offset) != kLocalSig)
    bad_zip(a.file(),
            member(e.name) + ": no local header at offset " + std::to_string(r.header_offset));
  if (a.u16(r.header_offset + 8) != e.method)
    bad_zip(a.file(), member(e.name) +
                          ": the local header and the central directory disagree "
                          "on the compression method");
  const uint64_t name_len = a.u16(r.header_offset + 26);
  const uint64_t extra_len = a.u16(r.header_offset + 28);
  a.need(r.header_offset + kLocalSize, name_len + extra_len, limit, what);
  if (a.sub(r.header_offset + kLocalSize, name_len) != e.name)
    bad_zip(a.file(), member(e.name) + ": the local header names it \"" +
                          std::string(a.sub(r.header_offset + kLocalSize, name_len)) + "\"");
  const uint64_t data = r.header_offset + kLocalSize + name_len + extra_len;
  a.need(data, e.compressed_size, limit, "the data of " + member(e.name));
  return data;
}

// ---- inflating --------------------------------------------------------------------------------

class Inflater {
 public:
  Inflater() {
    if (inflateInit2(&zs_, -MAX_WBITS) != Z_OK) throw_internal("zlib inflateInit2 failed");
  }
  ~Inflater() { inflateEnd(&zs_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;

  // Inflates a raw deflate stream into exactly out_size bytes; throws when the stream is
  // corrupt, ends early, or holds more.
  void run(std::string_view in, unsigned char* out, uint64_t out_size, const std::string& file,
           const std::string& name) {
    uint64_t in_pos = 0, out_pos = 0;
    unsigned char spare = 0;  // detects output beyond out_size
    for (;;) {
      const std::size_t in_chunk = std::min<uint64_t>(in.size() - in_pos, kZlibChunk);
      const bool full = out_pos == out_size;
      const std::size_t out_chunk = full ? 1 : std::min<uint64_t>(out_size - out_pos, kZlibChunk);
      zs_.next_in = reinterpret_cast<const Bytef*>(in.data() + in_pos);
      zs_.avail_in = static_cast<uInt>(in_chunk);
      zs_.next_out = full ? &spare : out + out_pos;
      zs_.avail_out = static_cast<uInt>(out_chunk);
      const int rc = inflate(&zs_, Z_NO_FLUSH);
      const std::size_t consumed = in_chunk - zs_.avail_in;
      const std::size_t produced = out_chunk - zs_.avail_out;
      in_pos += consumed;
      if (full && produced)
        bad_zip(file, member(name) + " inflates to more than the " + std::to_string(out_size) +
                          " bytes its directory entry declares");
      if (!full) out_pos += produced;
      if (rc == Z_STREAM_END) break;
      if (rc == Z_BUF_ERROR && in_pos == in.size())
        bad_zip(file, member(name) + ": the deflate stream ends early");
      if ((rc != Z_OK && rc != Z_BUF_ERROR) || (consumed == 0 && produced == 0))
        bad_zip(file, member(name) + ": corrupt deflate data (" +
                          std::string(zs_.msg ? zs_.msg : "no progress") + ")");
    }
    if (out_pos != out_size)
      bad_zip(file, member(name) + " inflates to " + std::to_string(out_pos) +
                        " bytes, but its directory entry declares " + std::to_string(out_size));
  }

 private:
  z_stream zs_{};
};

uint32_t crc_of(std::string_view bytes, uint32_t crc = 0) {
  return static_cast<uint32_t>(
      crc32_z(crc, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

// ---- writing ----------------------------------------------------------------------------------

void put16(std::string& s, uint64_t v) {
  for (int k = 0; k < 2; ++k) s += static_cast<char>((v >> (8 * k)) & 0xFF);
}
void put32(std::string& s, uint64_t v) {
  for (int k = 0; k < 4; ++k) s += static_cast<char>((v >> (8 * k)) & 0xFF);
}
void put64(std::string& s, uint64_t v) {
  for (int k = 0; k < 8; ++k) s += static_cast<char>((v >> (8 * k)) & 0xFF);
}

class Deflater {
 public:
  Deflater() {
    if (deflateInit2(&zs_, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK)
      throw_internal("zlib deflateInit2 failed");
  }
  ~Deflater() { deflateEnd(&zs_); }
  Deflater(const Deflater&) = delete;
  Deflater& operator=(const Deflater&) = delete;

  // Compresses `in`; flush Z_FINISH ends the stream.
  void feed(std::string_view in, int flush) {
    do {
      const std::size_t chunk = std::min(in.size(), kZlibChunk);
      zs_.next_in = reinterpret_cast<const Bytef*>(in.data());
      zs_.avail_in = static_cast<uInt>(chunk);
      const int mode = chunk == in.size() ? flush : Z_NO_FLUSH;
      do {  // the usual zlib loop: until deflate leaves output space unused
        const std::size_t space = 1 << 16;
        out_.resize(used_ + space);
        zs_.next_out = reinterpret_cast<Bytef*>(out_.data() + used_);
        zs_.avail_out = static_cast<uInt>(space);
        if (deflate(&zs_, mode) == Z_STREAM_ERROR) throw_internal("zlib deflate failed");
        used_ += space - zs_.avail_out;
      } while (zs_.avail_out == 0);
      in.remove_prefix(chunk);
    } while (!in.empty());
  }

  std::string take() {
    out_.resize(used_);
    return std::move(out_);
  }

 private:
  z_stream zs_{};
  std::string out_;
  std::size_t used_ = 0;
};

std::string deflate_pieces(std::span<const std::string_view> pieces) {
  Deflater d;
  for (std::string_view p : pieces) d.feed(p, Z_NO_FLUSH);
  d.feed({}, Z_FINISH);
  return d.take();
}

// Pads a local header's extra field so the data after it starts at a multiple of align.
// `start` is where the data would start without padding.
void pad_extra(std::string& extra, uint64_t start, std::size_t align) {
  if (align <= 1 || (start + extra.size()) % align == 0) return;
  uint64_t pad = align - (start + extra.size()) % align;
  while (pad < 6) pad += align;  // the record's id, length and alignment take 6 bytes
  put16(extra, kAlignExtraId);
  put16(extra, pad - 4);
  put16(extra, align);
  extra.append(static_cast<std::size_t>(pad - 6), '\0');
}

uint64_t saturate(uint64_t v, uint64_t max, bool force) {
  return force || v >= max ? max : v;
}

// What the local header and the central record of one member say.
struct Member {
  std::string_view name;
  uint32_t crc = 0;
  uint64_t size = 0;   // uncompressed
  uint64_t csize = 0;  // compressed
  uint64_t header_offset = 0;
  uint16_t method = kStored;
  bool force = false;  // zip64 fields whatever the sizes

  bool big() const { return force || size >= kMax32 || csize >= kMax32; }
  bool far() const { return force || header_offset >= kMax32; }
  uint16_t version() const { return big() || far() ? kVersion64 : kVersion; }
  uint16_t flags() const {
    const bool ascii = std::all_of(name.begin(), name.end(),
                                   [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    return ascii ? 0 : kFlagUtf8;
  }
};

// The version, flags, method, time and date fields both headers share.
void put_common(std::string& s, const Member& m) {
  for (uint16_t v : {m.version(), m.flags(), m.method, kDosTime, kDosDate}) put16(s, v);
  put32(s, m.crc);
}

std::string local_header(const Member& m, std::size_t align) {
  std::string extra;
  if (m.big()) {  // a local zip64 field holds both sizes
    put16(extra, kZip64ExtraId);
    put16(extra, 16);
    put64(extra, m.size);
    put64(extra, m.csize);
  }
  pad_extra(extra, m.header_offset + kLocalSize + m.name.size(), align);
  std::string h;
  put32(h, kLocalSig);
  put_common(h, m);
  put32(h, m.big() ? kMax32 : m.csize);
  put32(h, m.big() ? kMax32 : m.size);
  put16(h, m.name.size());
  put16(h, extra.size());
  h += m.name;
  return h + extra;
}

void append_central_record(std::string& c, const Member& m) {
  std::string extra64;  // the central zip64 field holds only the saturated values, in order
  if (m.force || m.size >= kMax32) put64(extra64, m.size);
  if (m.force || m.csize >= kMax32) put64(extra64, m.csize);
  if (m.far()) put64(extra64, m.header_offset);
  put32(c, kCentralSig);
  put16(c, kUnixHost | m.version());
  put_common(c, m);
  put32(c, saturate(m.csize, kMax32, m.force));
  put32(c, saturate(m.size, kMax32, m.force));
  put16(c, m.name.size());
  put16(c, extra64.empty() ? 0 : extra64.size() + 4);
  for (int k = 0; k < 3; ++k) put16(c, 0);  // comment length, disk, internal attributes
  put32(c, kRegularFile644);
  put32(c, saturate(m.header_offset, kMax32, m.force));
  c += m.name;
  if (extra64.empty()) return;
  put16(c, kZip64ExtraId);
  put16(c, extra64.size());
  c += extra64;
}

}  // namespace

std::optional<std::string> unsafe_zip_name(std::string_view name) {
  if (name.find('\0') != std::string_view::npos) return "it contains a NUL byte";
  if (!name.empty() && (name.front() == '/' || name.front() == '\\'))
    return "it is an absolute path";
  if (name.size() >= 2 && name[1] == ':' && std::isalpha(static_cast<unsigned char>(name[0])))
    return "it starts with a drive letter";
  std::size_t start = 0;
  for (std::size_t i = 0; i <= name.size(); ++i) {
    if (i < name.size() && name[i] != '/' && name[i] != '\\') continue;
    if (name.substr(start, i - start) == "..") return "it has a '..' component";
    start = i + 1;
  }
  return std::nullopt;
}

std::vector<ZipEntry> read_zip_directory(std::string_view archive, const std::string& file) {
  const Archive a(archive, file);
  const Directory d = read_directory_location(a);
  std::vector<ZipEntry> entries;
  std::unordered_set<std::string> names;
  uint64_t pos = d.offset;
  for (uint64_t i = 0; i < d.count; ++i) {
    RawEntry r = read_central_entry(a, pos, d, i);
    check_entry(r, file);
    if (!names.insert(r.entry.name).second)
      throw_invalid("npz.duplicate-name", file, member(r.entry.name),
                    "zip: the name appears more than once in the archive");
    // Members precede the central directory.
    r.entry.data_offset = read_local_header(a, r, d.offset);
    entries.push_back(std::move(r.entry));
  }
  if (pos != d.offset + d.size)
    bad_zip(file, "the central directory holds " + std::to_string(d.offset + d.size - pos) +
                      " bytes more than its " + std::to_string(d.count) + " entries");
  return entries;
}

ZipContent read_zip_entry(std::string_view archive, std::shared_ptr<const void> archive_owner,
                          const ZipEntry& e, const std::string& file) {
  const Archive a(archive, file);
  a.need(e.data_offset, e.compressed_size, a.size(), "the data of " + member(e.name));
  const std::string_view raw = a.sub(e.data_offset, e.compressed_size);
  ZipContent c;
  if (e.method == kStored) {
    c.bytes = raw;
    c.owner = std::move(archive_owner);
  } else {
    if (e.size / kMaxDeflateRatio > e.compressed_size ||
        e.size > std::numeric_limits<std::size_t>::max())
      bad_zip(file, member(e.name) + " declares " + std::to_string(e.size) + " bytes from " +
                        std::to_string(e.compressed_size) +
                        " compressed, more than deflate can produce");
    auto buffer = Storage::allocate(static_cast<std::size_t>(e.size));
    Inflater().run(raw, reinterpret_cast<unsigned char*>(buffer->writable_data()), e.size, file,
                   e.name);
    c.bytes = {reinterpret_cast<const char*>(buffer->data()), static_cast<std::size_t>(e.size)};
    c.owner = std::move(buffer);
  }
  const uint32_t crc = crc_of(c.bytes);
  if (crc != e.crc32)
    throw_invalid("npz.bad-crc", file, member(e.name),
                  "zip: the content has CRC-32 " + hex32(crc) + ", the archive records " +
                      hex32(e.crc32) + "; the archive is corrupt");
  return c;
}

ZipWriter::ZipWriter(Sink sink, ZipWriteOptions options)
    : sink_(std::move(sink)), options_(options) {}

void ZipWriter::emit(std::string_view bytes) {
  if (!bytes.empty()) sink_(bytes);
  offset_ += bytes.size();
}

void ZipWriter::add(std::string_view name, std::span<const std::string_view> pieces, bool compress,
                    std::size_t align) {
  if (name.size() > kMax16)
    throw_invalid("npz.bad-name", "", "", "zip: a member name is longer than 65535 bytes");
  Member m;
  m.name = name;
  for (std::string_view p : pieces) {
    m.crc = crc_of(p, m.crc);
    m.size += p.size();
  }
  const std::string deflated = compress ? deflate_pieces(pieces) : std::string();
  m.csize = compress ? deflated.size() : m.size;
  m.method = compress ? kDeflated : kStored;
  m.header_offset = offset_;
  m.force = options_.force_zip64;
  emit(local_header(m, compress ? 1 : align));
  if (compress) {
    emit(deflated);
  } else {
    for (std::string_view p : pieces) emit(p);
  }
  append_central_record(central_, m);
  ++count_;
}

void ZipWriter::finish() {
  const uint64_t dir_offset = offset_;
  const uint64_t dir_size = central_.size();
  emit(central_);
  std::string end;
  const bool force = options_.force_zip64;
  if (force || count_ >= kMax16 || dir_offset >= kMax32 || dir_size >= kMax32) {
    const uint64_t end64_offset = offset_;
    put32(end, kEnd64Sig);
    put64(end, kEnd64Size - 12);  // the record's size, not counting its first 12 bytes
    put16(end, kUnixHost | kVersion64);
    put16(end, kVersion64);
    put32(end, 0);  // this disk
    put32(end, 0);  // the directory's disk
    put64(end, count_);
    put64(end, count_);
    put64(end, dir_size);
    put64(end, dir_offset);
    put32(end, kLocator64Sig);
    put32(end, 0);  // the zip64 end record's disk
    put64(end, end64_offset);
    put32(end, 1);  // disks
  }
  put32(end, kEndSig);
  put16(end, 0);
  put16(end, 0);
  put16(end, saturate(count_, kMax16, false));
  put16(end, saturate(count_, kMax16, false));
  put32(end, saturate(dir_size, kMax32, false));
  put32(end, saturate(dir_offset, kMax32, false));
  put16(end, 0);  // comment length
  emit(end);
  central_.clear();
}

}  // namespace onnxtool
