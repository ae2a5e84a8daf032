// SPDX-License-Identifier: Apache-2.0
#include "core/model/model.h"

#include <fcntl.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/stubs/logging.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "core/diag/error.h"
#include "core/ir/location.h"
#include "core/ir/walk.h"
#include "core/model/wire_scan.h"
#include "core/text/json.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "core/types/npy.h"
#include "core/types/npz.h"
#include "core/types/tensor_proto.h"
#include "core/types/zip.h"
#include "core/util/atomic_file.h"
#include "core/util/format.h"
#include "core/util/mapped_file.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace fs = std::filesystem;

namespace {

// libprotobuf logs parse problems to stderr by itself; onnxtool reports them as diagnostics.
void silence_protobuf_logging() {
  static std::once_flag once;
  std::call_once(once, [] { google::protobuf::SetLogHandler(nullptr); });
}

void refuse_oversized(uint64_t size, const std::string& name) {
  if (size > kMaxProtoBytes)
    throw_invalid("model.too-large", name, "",
                  "file is " + human_bytes(size) +
                      "; a protobuf message cannot exceed 2 GiB, so a model this large must keep "
                      "its weights in external data files (onnxtool convert --external-data)");
}

// Names the common mistake of passing a tensor file (input_0.pb) where a model is expected.
bool looks_like_tensor(std::string_view bytes) {
  onnx::TensorProto t;
  if (!t.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return false;
  return t.data_type() > 0 && t.unknown_fields().empty();
}

bool parse_proto(std::string_view bytes, onnx::ModelProto& proto) {
  google::protobuf::io::ArrayInputStream raw(bytes.data(), static_cast<int>(bytes.size()));
  google::protobuf::io::CodedInputStream in(&raw);
  in.SetTotalBytesLimit(static_cast<int>(kMaxProtoBytes));
  in.SetRecursionLimit(kMaxProtoNesting);
  return proto.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
}

// Reads the sidecar .npz of a text model the way external data is read: the name must stay
// inside the data directory, no symbolic links are followed, and the file is mapped so stored
// members are used in place until they are copied into the ModelProto.
std::vector<NamedTensor> read_sidecar(const fs::path& dir, const std::string& name,
                                      const std::string& model_name) {
  const std::string shown = (dir / name).string();
  if (name.empty() || fs::path(name).is_absolute())
    throw_invalid("text.sidecar", model_name, "",
                  "the sidecar " + quoted_name(name) + " must be a relative path");
  const int dir_fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0)
    throw_io("io.not-found", model_name,
             "cannot open the directory of the sidecar " + shown + ": " + std::strerror(errno));
  std::string why;
  const int fd = open_beneath(dir_fd, name, why);
  ::close(dir_fd);
  if (fd < 0)
    throw_io("text.sidecar-missing", model_name, "cannot open the sidecar " + shown + ": " + why);
  auto file = MappedFile::from_fd(fd, shown);
  std::vector<NamedTensor> out;
  for (const ZipEntry& e : read_zip_directory(file->view(), shown)) {
    const std::string member = "member " + quoted_name(e.name);
    if (!e.name.ends_with(".npy"))
      throw_invalid("npz.not-npy", shown, member, "npz: the member is not a .npy file");
    const ZipContent c = read_zip_entry(file->view(), file, e, shown);
    out.push_back(
        {e.name.substr(0, e.name.size() - 4), decode_npy(c.bytes, c.owner, shown, member)});
  }
  return out;
}

std::shared_ptr<onnx::ModelProto> parse_text(std::string_view bytes, const std::string& name,
                                             const fs::path& data_dir) {
  text::TextParseOptions options;
  options.file = name;
  options.load_sidecar = [data_dir, name](const std::string& sidecar) {
    return read_sidecar(data_dir, sidecar, name);
  };
  auto proto = std::make_shared<onnx::ModelProto>();
  text::parse_model_text(bytes, *proto, options);
  return proto;
}

// --from, else the extensions that name a text format, else the bytes themselves: a text model
// saved as .txt (or a binary one without an extension) reads as what it is. Binary protobuf is
// never all printable (its field tags are control bytes), so sniffing cannot mistake one.
ModelFormat resolve_format(ModelFormat f, const std::string& name, std::string_view bytes) {
  if (f != ModelFormat::automatic) return f;
  if (name != "<stdin>" && format_from_path(name) != ModelFormat::binary)
    return format_from_path(name);
  return sniff_format(bytes);
}

}  // namespace

ModelFormat format_from_path(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".onnxtxt") return ModelFormat::text;
  if (ext == ".json") return ModelFormat::json;
  return ModelFormat::binary;
}

ModelFormat sniff_format(std::string_view bytes) {
  // Binary protobuf starts with a field tag (0x08 for ir_version) and is full of control bytes;
  // text and JSON have none but white space.
  const std::string_view head = bytes.substr(0, 65536);
  for (unsigned char c : head)
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v')
      return ModelFormat::binary;
  const auto first = head.find_first_not_of(" \t\r\n\f\v");
  if (first == std::string_view::npos) return ModelFormat::binary;
  return head[first] == '{' ? ModelFormat::json : ModelFormat::text;
}

std::optional<ModelFormat> model_format_named(std::string_view name) {
  if (name == "onnx" || name == "binary") return ModelFormat::binary;
  if (name == "text" || name == "onnxtxt") return ModelFormat::text;
  if (name == "json") return ModelFormat::json;
  return std::nullopt;
}

const char* model_format_name(ModelFormat f) {
  switch (f) {
    case ModelFormat::text:
      return "text";
    case ModelFormat::json:
      return "json";
    default:
      return "onnx";
  }
}

std::string text_sidecar_name(const std::string& path) {
  return fs::path(path).stem().string() + ".npz";
}

Tensor Model::tensor(const onnx::TensorProto& t, const std::string& location,
                     std::shared_ptr<const void> owner) const {
  TensorSource src;
  src.owner = owner ? std::move(owner) : proto;
  src.file = name;
  src.location = location;
  if (external) {
    auto ext = external;
    src.external_bytes = [ext, location](const onnx::TensorProto& p) {
      return ext->bytes(p, location);
    };
  }
  return tensor_from_proto(t, src);
}

Model model_from_proto(std::shared_ptr<onnx::ModelProto> proto, const std::string& name,
                       const fs::path& base_dir) {
  Model m;
  m.proto = std::move(proto);
  m.name = name;
  m.external = std::make_shared<ExternalData>(base_dir, name);
  return m;
}

namespace {

std::shared_ptr<onnx::ModelProto> parse_binary(std::string_view bytes, const std::string& name,
                                               DiagSink& sink) {
  refuse_oversized(bytes.size(), name);
  auto proto = std::make_shared<onnx::ModelProto>();
  if (!parse_proto(bytes, *proto)) {
    if (looks_like_tensor(bytes))
      throw_invalid("model.not-a-model", name, "",
                    "this is a TensorProto (a tensor .pb file), not an ONNX model");
    std::string why = diagnose_wire_format(bytes, onnx::ModelProto::descriptor());
    throw_invalid("model.not-protobuf", name, "",
                  "not an ONNX model: " + (why.empty() ? "the protobuf data does not parse" : why));
  }
  if (!proto->has_ir_version() && !proto->has_graph() && proto->opset_import_size() == 0)
    throw_invalid("model.not-a-model", name, "",
                  looks_like_tensor(bytes)
                      ? "this is a TensorProto (a tensor .pb file), not an ONNX model"
                      : "parses as protobuf but has no ir_version, opset_import or graph: not an "
                        "ONNX model");
  if (!proto->unknown_fields().empty())
    sink.report({Severity::warning,
                 "model.unknown-fields",
                 name,
                 "",
                 "the model has fields this version of onnxtool does not know; they are kept "
                 "but ignored",
                 {}});
  return proto;
}

}  // namespace

Model parse_model(std::string_view bytes, const std::string& name, const fs::path& base_dir,
                  const LoadOptions& options, DiagSink& sink) {
  silence_protobuf_logging();
  if (bytes.empty())
    throw_invalid("model.empty", name, "", "file is empty, expected an ONNX model (ModelProto)");
  const fs::path data_dir = options.data_dir.value_or(base_dir);
  std::shared_ptr<onnx::ModelProto> proto;
  switch (resolve_format(options.format, name, bytes)) {
    case ModelFormat::text:
      proto = parse_text(bytes, name, data_dir);
      break;
    case ModelFormat::json:
      proto = std::make_shared<onnx::ModelProto>();
      text::model_from_json(bytes, name, *proto);
      break;
    default:
      proto = parse_binary(bytes, name, sink);
      break;
  }
  Model m = model_from_proto(std::move(proto), name, data_dir);
  m.file_size = bytes.size();
  if (options.validate_external_data) validate_external_data(m, sink);
  return m;
}

Model load_model(const std::string& path, const LoadOptions& options, DiagSink& sink) {
  if (path == "-") {
    std::string bytes = read_stdin_bytes();
    Model m = parse_model(bytes, "<stdin>", fs::path("."), options, sink);
    return m;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    throw_io(err == ENOENT ? "io.not-found" : "io.stat", path,
             err == ENOENT ? "no such file" : std::string("cannot read: ") + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode))
    throw_io("io.is-directory", path, "is a directory, expected a model file");
  // Refuse before reading: mapping a multi-GB file only to reject it would be wasted work.
  if (S_ISREG(st.st_mode)) refuse_oversized(static_cast<uint64_t>(st.st_size), path);
  auto file = MappedFile::open(path);
  const fs::path dir = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : ".";
  Model m = parse_model(file->view(), path, dir, options, sink);
  m.path = path;
  return m;
}

void validate_external_data(const Model& model, DiagSink& sink) {
  for_each_tensor(
      *model.proto, [&](const onnx::TensorProto& t, const std::string& where, TensorRole) {
        if (t.data_location() == onnx::TensorProto::EXTERNAL) {
          model.external->validate(t, where, sink);
        } else if (t.external_data_size() > 0) {
          sink.report({Severity::warning,
                       "external-data.not-marked-external",
                       model.name,
                       where,
                       "tensor has external_data keys but data_location is not EXTERNAL; the keys "
                       "are ignored",
                       {}});
        }
      });
  model.external->report_repeats(sink);
}

void verify_external_checksums(const Model& model, DiagSink& sink) {
  for_each_tensor(
      *model.proto, [&](const onnx::TensorProto& t, const std::string& where, TensorRole) {
        if (t.data_location() != onnx::TensorProto::EXTERNAL) return;
        DiagSink quiet;  // problems with the reference itself are reported by validation
        if (auto ref = model.external->validate(t, where, quiet))
          model.external->verify_checksum(*ref, where, sink);
      });
}

std::string serialize_model(const onnx::ModelProto& proto) {
  refuse_oversized(proto.ByteSizeLong(), "");
  std::string out;
  proto.SerializeToString(&out);
  return out;
}

// ---- saving ---------------------------------------------------------------------------------

namespace {

bool is_external(const onnx::TensorProto& t) {
  return t.data_location() == onnx::TensorProto::EXTERNAL;
}

// A side file's path as the user would name it: "m.npz" beside "m.onnxtxt", not "./m.npz".
std::string beside(const fs::path& dir, const std::string& name) {
  return dir == "." ? name : (dir / name).string();
}

void clear_data_fields(onnx::TensorProto& t) {
  t.clear_raw_data();
  t.clear_float_data();
  t.clear_int32_data();
  t.clear_int64_data();
  t.clear_double_data();
  t.clear_uint64_data();
  t.clear_external_data();
  t.clear_data_location();
}

// The tensor's bytes as raw_data would hold them, without copying when they already are.
std::string_view wire_bytes_of(const Model& model, const onnx::TensorProto& t,
                               const std::string& where, std::string& scratch,
                               std::shared_ptr<Storage>& keep) {
  if (is_external(t)) {
    keep = model.external->bytes(t, where);
    return {reinterpret_cast<const char*>(keep->data()), keep->size()};
  }
  if (!t.raw_data().empty()) return t.raw_data();
  onnx::TensorProto tmp;
  tensor_to_proto(model.tensor(t, where), tmp);
  scratch = std::move(*tmp.mutable_raw_data());
  return scratch;
}

void set_external(onnx::TensorProto& t, const std::string& location, uint64_t offset,
                  uint64_t length) {
  clear_data_fields(t);
  auto add = [&](const char* k, const std::string& v) {
    auto* kv = t.add_external_data();
    kv->set_key(k);
    kv->set_value(v);
  };
  add("location", location);
  add("offset", std::to_string(offset));
  add("length", std::to_string(length));
  t.set_data_location(onnx::TensorProto::EXTERNAL);
}

uint64_t external_bytes_total(const Model& model) {
  uint64_t total = 0;
  for_each_tensor(*model.proto, [&](const onnx::TensorProto& t, const std::string&, TensorRole) {
    if (is_external(t)) total += expected_wire_bytes(t).value_or(0);
  });
  return total;
}

using TensorProgress = std::function<void(std::size_t, std::size_t, const std::string&)>;

// Counts the tensors `moves` selects, then reports each as it is reached (the walks are cheap
// next to the bytes they move).
class MoveCounter {
 public:
  MoveCounter(const onnx::ModelProto& proto, const TensorProgress& report,
              const std::function<bool(const onnx::TensorProto&, TensorRole)>& moves)
      : report_(report) {
    if (!report_) return;
    for_each_tensor(proto, [&](const onnx::TensorProto& t, const std::string&, TensorRole role) {
      total_ += moves(t, role) ? 1 : 0;
    });
  }
  void next(const std::string& where) {
    if (report_) report_(done_++, total_, where);
  }

 private:
  const TensorProgress& report_;
  std::size_t total_ = 0, done_ = 0;
};

void embed_all(Model& model, const TensorProgress& report) {
  const uint64_t projected = model.proto->ByteSizeLong() + external_bytes_total(model);
  if (projected > kMaxProtoBytes)
    throw_invalid("model.too-large", model.name, "",
                  "embedding the external data would make the model " + human_bytes(projected) +
                      ", over protobuf's 2 GiB limit; keep the weights external");
  MoveCounter counter(*model.proto, report,
                      [](const onnx::TensorProto& t, TensorRole) { return is_external(t); });
  for_each_tensor(*model.proto, [&](onnx::TensorProto& t, const std::string& where, TensorRole) {
    if (!is_external(t)) return;
    counter.next(where);
    auto bytes = model.external->bytes(t, where);
    clear_data_fields(t);
    t.set_raw_data(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  });
}

// Moves the selected tensors' bytes into one side file, each at a 4 KiB-aligned offset so it
// can be memory-mapped in place.
void externalize(Model& model, const fs::path& out_dir, const std::string& side_name,
                 const std::function<bool(const onnx::TensorProto&, TensorRole)>& select,
                 std::vector<std::string>* written, const TensorProgress& report) {
  constexpr uint64_t kAlign = 4096;
  std::unique_ptr<AtomicFile> side;
  MoveCounter counter(*model.proto, report, [&](const onnx::TensorProto& t, TensorRole role) {
    return t.data_type() != onnx::TensorProto::STRING && select(t, role);
  });
  for_each_tensor(*model.proto,
                  [&](onnx::TensorProto& t, const std::string& where, TensorRole role) {
                    if (t.data_type() == onnx::TensorProto::STRING || !select(t, role)) return;
                    counter.next(where);
                    if (!side) side = std::make_unique<AtomicFile>(out_dir / side_name);
                    std::string scratch;
                    std::shared_ptr<Storage> keep;
                    std::string_view bytes = wire_bytes_of(model, t, where, scratch, keep);
                    const uint64_t offset = side->pad_to(kAlign);
                    side->write(bytes);
                    set_external(t, side_name, offset, bytes.size());
                  });
  if (!side) return;
  side->commit();
  if (written) written->push_back(beside(out_dir, side_name));
}

fs::path canonical_dir(const fs::path& p) {
  std::error_code ec;
  auto c = fs::weakly_canonical(p.empty() ? fs::path(".") : p, ec);
  return ec ? p : c;
}

// Text: the sidecar first (when any tensor goes there), then the text, each atomically.
void write_text(const Model& model, const std::string& path, const fs::path& out_dir,
                const SaveOptions& options) {
  text::TextPrintOptions po;
  po.inline_limit = options.text_inline_limit;
  if (path != "-") po.sidecar_name = text_sidecar_name(path);
  const text::PrintedText printed = text::print_model_text(*model.proto, po, model.proto);
  if (!printed.sidecar.empty()) {
    write_npz(out_dir / po.sidecar_name, printed.sidecar, false);
    if (options.written) options.written->push_back(beside(out_dir, po.sidecar_name));
  }
  write_file_atomically(path, printed.text);
}

void write_proto(const onnx::ModelProto& proto, const std::string& path, const std::string& name) {
  const uint64_t size = proto.ByteSizeLong();
  if (size > kMaxProtoBytes)
    throw_invalid("model.too-large", name, "",
                  "the model would be " + human_bytes(size) +
                      ", over protobuf's 2 GiB limit; move weights out with --external-data");
  if (path == "-") {
    std::string bytes;
    proto.SerializeToString(&bytes);
    write_file_atomically("-", bytes);
    return;
  }
  AtomicFile out(path);
  {
    google::protobuf::io::FileOutputStream stream(out.fd());
    if (!proto.SerializeToZeroCopyStream(&stream) || !stream.Flush())
      throw_io("io.write", path, "cannot write the model");
  }
  out.commit();
}

}  // namespace

namespace {

// The side file's name is written into the model as each tensor's location: it must be one the
// loader accepts (ExternalData.md: relative, inside the model's folder), or the model we write
// would be refused by our own check and run. Refused before anything is written.
void check_side_file_name(const std::string& side_name) {
  auto refuse = [&](const char* rule, const std::string& why) {
    throw Error(ErrorKind::usage, rule, side_name, "",
                "--external-data " + why +
                    "; give a path relative to the output model's folder, e.g. weights.data");
  };
  const fs::path p(side_name);
  if (side_name.empty() || !p.has_filename())
    refuse("external-data.bad-location", "needs a file name");
  if (p.is_absolute())
    refuse("external-data.absolute-path", "is an absolute path, which ExternalData.md forbids");
  for (const auto& part : p)
    if (part == "..") refuse("external-data.escapes-model-dir", "leaves the model's folder (..)");
}

}  // namespace

void save_model(Model& model, const std::string& path, const SaveOptions& options) {
  const fs::path out_dir =
      path == "-" ? fs::path(".")
                  : (fs::path(path).has_parent_path() ? fs::path(path).parent_path() : ".");
  const std::string side_name = options.external_file.empty()
                                    ? fs::path(path).filename().string() + ".data"
                                    : options.external_file;
  using E = SaveOptions::External;
  switch (options.external) {
    case E::embed:
      embed_all(model, options.on_tensor);
      break;
    case E::externalize: {
      if (path == "-") throw_usage("external data needs a model file path, not stdout");
      check_side_file_name(side_name);
      const uint64_t threshold = options.size_threshold;
      const bool attrs = options.include_attributes;
      externalize(
          model, out_dir, side_name,
          [&](const onnx::TensorProto& t, TensorRole role) {
            if (role == TensorRole::sparse_initializer) return false;
            if (role == TensorRole::attribute && !attrs) return false;
            if (is_external(t)) return true;
            return expected_wire_bytes(t).value_or(0) >= threshold;
          },
          options.written, options.on_tensor);
      break;
    }
    case E::keep: {
      // References are relative to the data directory; saving elsewhere copies the data so
      // the new model is complete on its own.
      if (external_bytes_total(model) > 0 && path != "-" &&
          canonical_dir(out_dir) != canonical_dir(model.external->base_dir()))
        externalize(
            model, out_dir, side_name,
            [](const onnx::TensorProto& t, TensorRole) { return is_external(t); }, options.written,
            options.on_tensor);
      break;
    }
  }
  const ModelFormat format = options.format == ModelFormat::automatic
                                 ? (path == "-" ? ModelFormat::binary : format_from_path(path))
                                 : options.format;
  if (format == ModelFormat::text)
    write_text(model, path, out_dir, options);
  else if (format == ModelFormat::json)
    write_file_atomically(path, text::model_to_json(*model.proto));
  else
    write_proto(*model.proto, path, model.name);
  if (options.written && path != "-") options.written->push_back(path);
  if (path != "-") {
    model.external = std::make_shared<ExternalData>(out_dir, path);
    model.path = path;
    model.name = path;
  }
}

}  // namespace onnxtool
