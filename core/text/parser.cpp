// SPDX-License-Identifier: Apache-2.0
#include "core/text/parser.h"

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "core/diag/error.h"
#include "core/ir/type_text.h"
#include "core/text/lexer.h"
#include "core/text/residual.h"
#include "core/text/syntax.h"
#include "core/text/values.h"
#include "core/types/tensor_proto.h"
#include "onnx.pb.h"

namespace onnxtool::text {

namespace {

using onnx::AttributeProto;
using onnx::FunctionProto;
using onnx::GraphProto;
using onnx::ModelProto;
using onnx::NodeProto;
using onnx::TensorProto;
using onnx::TypeProto;
using onnx::ValueInfoProto;
using StringPairs = google::protobuf::RepeatedPtrField<onnx::StringStringEntryProto>;
using Opsets = google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>;

// Protobuf parses at most 100 levels of nested messages; text that nests deeper would make a
// model no binary reader accepts. Each construct is charged the message levels it opens.
constexpr int kMessageDepthBudget = 96;
constexpr int kGraphCost = 3;  // graph -> node -> attribute
constexpr int kTypeCost = 2;   // type -> seq/map/optional -> type

class Parser {
 public:
  Parser(std::string_view src, const TextParseOptions& options)
      : lex_(src, options.file), options_(options) {}

  void model(ModelProto& m);
  void whole_graph(GraphProto& g);
  void whole_type(TypeProto& t);
  void whole_function(FunctionProto& f);

 private:
  // ---- tokens ----
  const Token& peek(std::size_t k = 0);
  Token take();
  bool accept(char c);
  Token expect(char c, const std::string& why);
  void expect_arrow(const std::string& why);
  void expect_end();
  [[noreturn]] void fail(const Token& at, const char* rule, const std::string& message) const;
  [[noreturn]] void expected(const std::string& what, const Token& found) const;
  std::string where(std::size_t offset) const;
  bool at_name() { return peek().kind == Tok::ident || peek().kind == Tok::string; }
  std::string quotable(const std::string& what);
  bool maybe_annotation(google::protobuf::Message& msg);

  struct Nesting {
    Nesting(Parser& p, int c, const Token& at) : parser(p), cost(c) {
      parser.depth_ += cost;
      if (parser.depth_ > kMessageDepthBudget)
        parser.fail(at, "text.too-deep",
                    "nested too deeply: protobuf reads at most 100 levels of nested messages");
    }
    ~Nesting() { parser.depth_ -= cost; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    Parser& parser;
    int cost;
  };
  int nesting_left() const { return kMessageDepthBudget - depth_; }

  // ---- model ----
  void header(ModelProto& m);
  void header_entry(ModelProto& m, std::set<std::string>& seen);
  void opsets(Opsets& out);
  void pairs(StringPairs& out);
  void function(FunctionProto& f);
  void function_header(FunctionProto& f);
  void function_attributes(FunctionProto& f);
  void function_params(google::protobuf::RepeatedPtrField<std::string>& names,
                       google::protobuf::RepeatedPtrField<ValueInfoProto>& infos, const char* what);
  void training_info(onnx::TrainingInfoProto& ti);

  // ---- graphs ----
  void graph(GraphProto& g);
  void graph_input(GraphProto& g, std::set<std::string>& initializers);
  void locals(GraphProto& g);
  void local(GraphProto& g, std::set<std::string>& initializers);
  void value_infos(google::protobuf::RepeatedPtrField<ValueInfoProto>& out, char close,
                   const char* what);
  bool value_info_head(ValueInfoProto& v, const char* what);
  void nodes(google::protobuf::RepeatedPtrField<NodeProto>& out, std::size_t owner_offset);
  void node(NodeProto& n);
  void node_op(NodeProto& n);
  void ids(google::protobuf::RepeatedPtrField<std::string>& out, char close, const char* what);

  // ---- types ----
  bool at_type();
  void type(TypeProto& t);
  void tensor_shape(onnx::TensorShapeProto& shape);
  void element_type(int32_t& out, const char* what);
  std::string qualified_name();

  // ---- attributes ----
  void attributes(google::protobuf::RepeatedPtrField<AttributeProto>& out);
  void attribute(AttributeProto& a, std::set<std::string>& seen);
  void attribute_after_name(AttributeProto& a, const Token& name_token);
  void attribute_list(AttributeProto& a, int declared, const Token& name_token);
  void single_value(AttributeProto& v, int expected);

  // ---- tensors ----
  void tensor_value(TensorProto& t);
  void tensor_from_type(TensorProto& t, const TypeProto& type, const Token& at);
  void tensor_data(TensorProto& t);
  void typed_values(TensorProto& t);
  void raw_values(TensorProto& t);
  const Tensor& sidecar_member(const Token& at, const std::string& name, const TensorProto& t);
  void sparse(onnx::SparseTensorProto& s);

  Lexer lex_;
  const TextParseOptions& options_;
  std::deque<Token> ahead_;
  int depth_ = 0;
  std::string sidecar_name_;
  bool sidecar_loaded_ = false;
  std::map<std::string, Tensor> sidecar_;
};

// ---- tokens ---------------------------------------------------------------------------------

const Token& Parser::peek(std::size_t k) {
  while (ahead_.size() <= k) ahead_.push_back(lex_.next());
  return ahead_[k];
}

Token Parser::take() {
  peek();
  Token t = std::move(ahead_.front());
  ahead_.pop_front();
  return t;
}

bool Parser::accept(char c) {
  if (!peek().is(c)) return false;
  take();
  return true;
}

Token Parser::expect(char c, const std::string& why) {
  if (!peek().is(c)) expected(std::string("'") + c + "' " + why, peek());
  return take();
}

void Parser::expect_arrow(const std::string& why) {
  if (peek().kind != Tok::arrow) expected("'=>' " + why, peek());
  take();
}

void Parser::expect_end() {
  if (peek().kind != Tok::end) expected("the end of input", peek());
}

void Parser::fail(const Token& at, const char* rule, const std::string& message) const {
  lex_.fail(at.offset, rule, message);
}

void Parser::expected(const std::string& what, const Token& found) const {
  fail(found, found.kind == Tok::end ? "text.unexpected-end" : "text.syntax",
       "expected " + what + ", found " + describe(found));
}

std::string Parser::where(std::size_t offset) const {
  const Position p = position_of(lex_.source(), offset);
  return std::to_string(p.line) + ":" + std::to_string(p.column);
}

std::string Parser::quotable(const std::string& what) {
  if (!at_name()) expected(what, peek());
  Token t = take();
  return t.kind == Tok::string ? std::move(t.value) : std::string(t.text);
}

bool Parser::maybe_annotation(google::protobuf::Message& msg) {
  if (peek().kind != Tok::annotation || !peek().name.empty()) return false;
  merge_annotation(lex_, take(), msg, nesting_left());
  return true;
}

// ---- model ----------------------------------------------------------------------------------

void Parser::model(ModelProto& m) {
  if (peek().is('<')) header(m);
  if (peek().is_ext("no_graph")) {
    take();
  } else {
    if (peek().kind == Tok::end) expected("a graph", peek());
    graph(*m.mutable_graph());
  }
  std::set<std::tuple<std::string, std::string, std::string>> functions;
  while (peek().kind != Tok::end) {
    if (peek().is_ext("training_info")) {
      training_info(*m.add_training_info());
      continue;
    }
    const Token start = peek();
    if (!start.is('<') && !at_name() && !start.is_raw("function"))
      expected("a function, %training_info or the end of input", start);
    FunctionProto& f = *m.add_functions();
    function(f);
    if (start.kind == Tok::annotation) continue;  // %function{...}: written whole, not checked
    if (!functions.emplace(f.domain(), f.name(), f.overload()).second)
      fail(start, "text.duplicate-name",
           "function " + text_string_literal(f.name()) +
               " is defined twice (same domain, name and overload)");
  }
}

void Parser::header(ModelProto& m) {
  expect('<', "to open the model header");
  if (accept('>')) return;
  std::set<std::string> seen;
  do {
    header_entry(m, seen);
  } while (accept(','));
  expect('>', "to close the model header");
}

void Parser::header_entry(ModelProto& m, std::set<std::string>& seen) {
  const Token key = peek();
  if (maybe_annotation(m)) return;
  if (key.is_ext("npz")) {
    take();
    if (!seen.insert("%npz").second) fail(key, "text.duplicate-name", "%npz is given twice");
    expect(':', "after %npz");
    if (peek().kind != Tok::string) expected("the sidecar file name as a string", peek());
    sidecar_name_ = take().value;
    return;
  }
  if (key.kind != Tok::ident) expected("a model header key such as ir_version", key);
  take();
  const std::string k(key.text);
  if (!seen.insert(k).second)
    fail(key, "text.duplicate-name", "header key " + k + " is given twice");
  expect(':', "after the header key " + k);
  auto string_value = [&]() {
    if (peek().kind != Tok::string) expected("a string for " + k, peek());
    return take().value;
  };
  if (k == "ir_version") {
    m.set_ir_version(parse_int64(lex_, take()));
  } else if (k == "opset_import") {
    opsets(*m.mutable_opset_import());
  } else if (k == "producer_name") {
    m.set_producer_name(string_value());
  } else if (k == "producer_version") {
    m.set_producer_version(string_value());
  } else if (k == "domain") {
    m.set_domain(string_value());
  } else if (k == "model_version") {
    m.set_model_version(parse_int64(lex_, take()));
  } else if (k == "doc_string") {
    m.set_doc_string(string_value());
  } else if (k == "metadata_props") {
    pairs(*m.mutable_metadata_props());
  } else {
    fail(key, "text.unknown-key",
         "unknown model header key '" + k +
             "'; expected ir_version, opset_import, producer_name, producer_version, domain, "
             "model_version, doc_string or metadata_props");
  }
}

void Parser::opsets(Opsets& out) {
  expect('[', "to open the opset list");
  if (accept(']')) return;
  do {
    auto* o = out.Add();
    if (peek().kind == Tok::string) {
      o->set_domain(take().value);
      expect(':', "between an opset's domain and its version");
    } else if (peek().kind != Tok::integer) {
      expected("an opset: \"domain\" : version", peek());
    }
    o->set_version(parse_int64(lex_, take()));
  } while (accept(','));
  expect(']', "to close the opset list");
}

void Parser::pairs(StringPairs& out) {
  expect('[', "to open the list of \"key\": \"value\" pairs");
  if (accept(']')) return;
  do {
    auto* p = out.Add();
    if (peek().kind != Tok::string) expected("a \"key\": \"value\" pair", peek());
    p->set_key(take().value);
    expect(':', "between a key and its value");
    if (peek().kind != Tok::string) expected("a string value", peek());
    p->set_value(take().value);
  } while (accept(','));
  expect(']', "to close the list of pairs");
}

void Parser::training_info(onnx::TrainingInfoProto& ti) {
  take();  // %training_info
  expect('{', "to open %training_info");
  if (accept('}')) return;
  std::set<std::string> seen;
  do {
    if (maybe_annotation(ti)) continue;
    const Token key = peek();
    if (key.kind != Tok::ident)
      expected("initialization, algorithm, initialization_binding or update_binding", key);
    take();
    const std::string k(key.text);
    if (!seen.insert(k).second) fail(key, "text.duplicate-name", k + " is given twice");
    expect(':', "after " + k);
    if (k == "initialization")
      graph(*ti.mutable_initialization());
    else if (k == "algorithm")
      graph(*ti.mutable_algorithm());
    else if (k == "initialization_binding")
      pairs(*ti.mutable_initialization_binding());
    else if (k == "update_binding")
      pairs(*ti.mutable_update_binding());
    else
      fail(key, "text.unknown-key",
           "unknown %training_info key '" + k +
               "'; expected initialization, algorithm, initialization_binding or update_binding");
  } while (accept(','));
  expect('}', "to close %training_info");
}

// ---- functions ------------------------------------------------------------------------------

void Parser::function(FunctionProto& f) {
  if (peek().is_raw("function")) {
    parse_raw_entity(lex_, take(), f, nesting_left());
    return;
  }
  const std::size_t start_offset = peek().offset;
  if (peek().is('<')) function_header(f);
  f.set_name(quotable("a function name"));
  if (peek().is('<')) function_attributes(f);
  function_params(*f.mutable_input(), *f.mutable_value_info(), "input");
  expect_arrow("between the function's inputs and outputs");
  function_params(*f.mutable_output(), *f.mutable_value_info(), "output");
  if (accept('<')) value_infos(*f.mutable_value_info(), '>', "function value_info list");
  nodes(*f.mutable_node(), start_offset);
}

void Parser::function_header(FunctionProto& f) {
  take();  // '<'
  if (accept('>')) return;
  std::set<std::string> seen;
  do {
    if (maybe_annotation(f)) continue;
    const Token key = peek();
    if (key.kind != Tok::ident) expected("a function header key such as domain", key);
    take();
    const std::string k(key.text);
    if (!seen.insert(k).second)
      fail(key, "text.duplicate-name", "header key " + k + " is given twice");
    expect(':', "after the header key " + k);
    if (k == "opset_import") {
      opsets(*f.mutable_opset_import());
      continue;
    }
    if (k != "domain" && k != "overload" && k != "doc_string")
      fail(key, "text.unknown-key",
           "unknown function header key '" + k +
               "'; expected domain, opset_import, overload or doc_string");
    if (peek().kind != Tok::string) expected("a string for " + k, peek());
    std::string v = take().value;
    if (k == "domain") f.set_domain(std::move(v));
    if (k == "overload") f.set_overload(std::move(v));
    if (k == "doc_string") f.set_doc_string(std::move(v));
  } while (accept(','));
  expect('>', "to close the function header");
}

// <a, b, c = 1.0>: names without defaults and attributes with defaults.
void Parser::function_attributes(FunctionProto& f) {
  take();  // '<'
  std::set<std::string> seen;
  do {
    if (peek().is_raw("attr")) {
      parse_raw_entity(lex_, take(), *f.add_attribute_proto(), nesting_left());
      continue;
    }
    if (peek(1).is(':') || peek(1).is('=') ||
        (peek(1).kind == Tok::annotation && peek(1).name.empty())) {
      attribute(*f.add_attribute_proto(), seen);
      continue;
    }
    f.add_attribute(quotable("an attribute name"));
  } while (accept(','));
  expect('>', "to close the function's attribute list");
}

// (x, float[N] y): names, with an optional type that adds a value_info (as Syntax.md says).
void Parser::function_params(google::protobuf::RepeatedPtrField<std::string>& names,
                             google::protobuf::RepeatedPtrField<ValueInfoProto>& infos,
                             const char* what) {
  expect('(', std::string("to open the function's ") + what + " list");
  if (accept(')')) return;
  do {
    if (at_type()) {
      ValueInfoProto& v = *infos.Add();
      type(*v.mutable_type());
      v.set_name(quotable(std::string("a function ") + what + " name"));
      names.Add()->assign(v.name());
    } else {
      names.Add()->assign(quotable(std::string("a function ") + what + " name"));
    }
  } while (accept(','));
  expect(')', std::string("to close the function's ") + what + " list");
}

// ---- graphs ---------------------------------------------------------------------------------

void Parser::graph(GraphProto& g) {
  const Token start = peek();
  Nesting nest(*this, kGraphCost, start);
  if (at_name()) g.set_name(quotable("a graph name"));
  expect('(', "to open the graph's input list");
  std::set<std::string> initializers;
  if (!accept(')')) {
    do {
      graph_input(g, initializers);
    } while (accept(','));
    expect(')', "to close the graph's input list");
  }
  expect_arrow("after the graph's inputs");
  expect('(', "to open the graph's output list");
  value_infos(*g.mutable_output(), ')', "graph output list");
  if (peek().is('<')) {
    take();
    if (!accept('>')) {
      do {
        local(g, initializers);
      } while (accept(','));
      expect('>', "to close the graph's list of initializers and value_info");
    }
  }
  nodes(*g.mutable_node(), start.offset);
  maybe_annotation(g);
}

// type? name %{..}? ('=' data)?: an input, and an initializer when data follows.
void Parser::graph_input(GraphProto& g, std::set<std::string>& initializers) {
  if (peek().is_raw("value_info")) {
    parse_raw_entity(lex_, take(), *g.add_input(), nesting_left());
    return;
  }
  ValueInfoProto& v = *g.add_input();
  const Token at = peek();
  value_info_head(v, "graph input");
  maybe_annotation(v);
  if (!accept('=')) return;
  TensorProto& t = *g.add_initializer();
  if (v.has_name()) {
    t.set_name(v.name());
    if (!initializers.insert(v.name()).second)
      fail(at, "text.duplicate-name",
           "initializer " + text_string_literal(v.name()) + " is given twice");
  }
  tensor_from_type(t, v.type(), at);
  tensor_data(t);
}

// One entry of the graph's <...> list: an initializer (with '='), a sparse initializer, or a
// value_info.
void Parser::local(GraphProto& g, std::set<std::string>& initializers) {
  if (peek().is_ext("sparse")) return sparse(*g.add_sparse_initializer());
  if (peek().is_raw("tensor"))
    return parse_raw_entity(lex_, take(), *g.add_initializer(), nesting_left());
  if (peek().is_raw("value_info"))
    return parse_raw_entity(lex_, take(), *g.add_value_info(), nesting_left());
  const Token at = peek();
  ValueInfoProto v;
  value_info_head(v, "initializer or value_info");
  if (!accept('=')) {
    maybe_annotation(v);
    *g.add_value_info() = std::move(v);
    return;
  }
  TensorProto& t = *g.add_initializer();
  if (v.has_name()) {
    t.set_name(v.name());
    if (!initializers.insert(v.name()).second)
      fail(at, "text.duplicate-name",
           "initializer " + text_string_literal(v.name()) + " is given twice");
  }
  tensor_from_type(t, v.type(), at);
  tensor_data(t);
}

void Parser::value_infos(google::protobuf::RepeatedPtrField<ValueInfoProto>& out, char close,
                         const char* what) {
  if (accept(close)) return;
  do {
    if (peek().is_raw("value_info")) {
      parse_raw_entity(lex_, take(), *out.Add(), nesting_left());
      continue;
    }
    ValueInfoProto& v = *out.Add();
    value_info_head(v, what);
    maybe_annotation(v);
  } while (accept(','));
  expect(close, std::string("to close the ") + what);
}

// type? name?, at least one of them. Returns whether a type was given.
bool Parser::value_info_head(ValueInfoProto& v, const char* what) {
  bool typed = false;
  if (at_type()) {
    type(*v.mutable_type());
    typed = true;
  }
  if (at_name()) {
    const Token n = peek();
    // `flaot[3] x` reads as a name followed by '[': say what is wrong with it.
    if (!typed && n.kind == Tok::ident && peek(1).is('['))
      fail(n, "text.unknown-type", "unknown type '" + std::string(n.text) + "'");
    v.set_name(quotable("a name"));
  } else if (!typed) {
    expected(std::string("a type or a name in the ") + what, peek());
  }
  return typed;
}

// owner_offset: where the graph or function begins, for the message about a missing '}'.
void Parser::nodes(google::protobuf::RepeatedPtrField<NodeProto>& out, std::size_t owner_offset) {
  expect('{', "to open the node list");
  while (!accept('}')) {
    const Token& t = peek();
    if (!(t.is('[') || t.is('=') || t.kind == Tok::ident || t.kind == Tok::string))
      expected("a node or '}' to close the node list begun at " + where(owner_offset), t);
    node(*out.Add());
  }
}

// [label] outputs = domain.Op:overload <attributes> (inputs) <attributes> %{...}
void Parser::node(NodeProto& n) {
  if (accept('[')) {
    n.set_name(at_name() ? quotable("a node name") : std::string());
    expect(']', "after the node name");
  }
  while (!peek().is('=')) {
    n.add_output(quotable("an output name or '='"));
    if (!accept(',')) break;
  }
  expect('=', "after the node's outputs");
  node_op(n);
  const bool before = peek().is('<');
  if (before) attributes(*n.mutable_attribute());
  expect('(', "to open the node's input list");
  ids(*n.mutable_input(), ')', "node's input list");
  if (!before && peek().is('<')) attributes(*n.mutable_attribute());
  maybe_annotation(n);
}

// domain.parts.Op:overload; absent when '(' or '<' follows '=' directly (no op_type).
void Parser::node_op(NodeProto& n) {
  if (!at_name()) return;
  std::vector<std::string> parts{quotable("an operator")};
  while (accept('.')) parts.push_back(quotable("an operator after '.'"));
  n.set_op_type(parts.back());
  if (parts.size() > 1) {
    std::string domain = parts[0];
    for (std::size_t i = 1; i + 1 < parts.size(); ++i) domain += "." + parts[i];
    n.set_domain(domain);
  }
  if (accept(':')) n.set_overload(quotable("an overload name after ':'"));
}

// Names separated by commas; as in the official parser, an empty name may be written "" or
// left out before a comma: (x, , y).
void Parser::ids(google::protobuf::RepeatedPtrField<std::string>& out, char close,
                 const char* what) {
  if (accept(close)) return;
  do {
    if (peek().is(',')) {
      out.Add();
      continue;
    }
    if (peek().is(close)) break;  // a trailing comma
    out.Add()->assign(quotable(std::string("a name in the ") + what));
  } while (accept(','));
  expect(close, std::string("to close the ") + what);
}

// ---- types ----------------------------------------------------------------------------------

bool Parser::at_type() {
  const Token& t = peek();
  if (t.is_raw("type")) return true;
  return t.kind == Tok::ident && (element_type_named(t.text) || is_type_keyword(t.text));
}

void Parser::type(TypeProto& t) {
  const Token start = peek();
  Nesting nest(*this, kTypeCost, start);
  if (start.is_raw("type")) {
    parse_raw_entity(lex_, take(), t, nesting_left());
    return;
  }
  if (start.kind != Tok::ident) expected("a type", start);
  if (auto elem = element_type_named(start.text)) {
    take();
    auto* tt = t.mutable_tensor_type();
    tt->set_elem_type(static_cast<int32_t>(*elem));
    if (!accept('[')) {
      tt->mutable_shape();      // `float`: a scalar, rank 0
    } else if (!accept(']')) {  // `float[]`: rank unknown, no shape
      tensor_shape(*tt->mutable_shape());
      expect(']', "to close the dimensions");
    }
    return;
  }
  const std::string word(start.text);
  if (!is_type_keyword(word)) fail(start, "text.unknown-type", "unknown type '" + word + "'");
  take();
  expect('(', "after " + word);
  if (word == "seq") {
    type(*t.mutable_sequence_type()->mutable_elem_type());
  } else if (word == "optional") {
    type(*t.mutable_optional_type()->mutable_elem_type());
  } else if (word == "map") {
    int32_t key = 0;
    element_type(key, "a map key type");
    t.mutable_map_type()->set_key_type(key);
    expect(',', "after the map key type");
    type(*t.mutable_map_type()->mutable_value_type());
  } else if (word == "sparse_tensor") {
    auto* st = t.mutable_sparse_tensor_type();
    int32_t elem = 0;
    element_type(elem, "an element type");
    st->set_elem_type(elem);
    if (!accept('[')) {
      st->mutable_shape();
    } else if (!accept(']')) {
      tensor_shape(*st->mutable_shape());
      expect(']', "to close the dimensions");
    }
  } else {  // opaque(), opaque(name), opaque(domain, name)
    auto* o = t.mutable_opaque_type();
    if (!peek().is(')')) {
      std::string first = qualified_name();
      if (accept(',')) {
        o->set_domain(std::move(first));
        o->set_name(qualified_name());
      } else {
        o->set_name(std::move(first));
      }
    }
  }
  expect(')', "to close " + word + "(...)");
}

void Parser::element_type(int32_t& out, const char* what) {
  const Token& t = peek();
  auto elem = t.kind == Tok::ident ? element_type_named(t.text) : std::nullopt;
  if (!elem) {
    if (t.kind == Tok::ident)
      fail(t, "text.unknown-type", "unknown element type '" + std::string(t.text) + "'");
    expected(what, t);
  }
  take();
  out = static_cast<int32_t>(*elem);
}

std::string Parser::qualified_name() {
  if (peek().kind == Tok::string) return take().value;
  std::string s = quotable("a name");
  while (accept('.')) s += "." + quotable("a name after '.'");
  return s;
}

void Parser::tensor_shape(onnx::TensorShapeProto& shape) {
  do {
    const Token& t = peek();
    auto* d = shape.add_dim();
    if (t.is('?')) {
      take();
    } else if (t.kind == Tok::ident || t.kind == Tok::string) {
      d->set_dim_param(quotable("a dimension"));
    } else if (t.kind == Tok::integer) {
      d->set_dim_value(parse_int64(lex_, take()));
    } else {
      expected("a dimension (a number, a name or ?)", t);
    }
  } while (accept(','));
}

// ---- attributes -----------------------------------------------------------------------------

void Parser::attributes(google::protobuf::RepeatedPtrField<AttributeProto>& out) {
  expect('<', "to open the attribute list");
  std::set<std::string> seen;
  do {
    if (peek().is_raw("attr")) {
      parse_raw_entity(lex_, take(), *out.Add(), nesting_left());
      continue;
    }
    attribute(*out.Add(), seen);
  } while (accept(','));
  expect('>', "to close the attribute list");
}

// name (: type)? %{...}? = value
void Parser::attribute(AttributeProto& a, std::set<std::string>& seen) {
  const Token name_token = peek();
  a.set_name(quotable("an attribute name"));
  if (!seen.insert(a.name()).second)
    fail(name_token, "text.duplicate-name",
         "attribute " + text_string_literal(a.name()) + " is given twice");
  attribute_after_name(a, name_token);
}

void Parser::attribute_after_name(AttributeProto& a, const Token& name_token) {
  int declared = AttributeProto::UNDEFINED;
  if (accept(':')) {
    const Token t = peek();
    auto type = t.kind == Tok::ident ? attribute_type_named(t.text) : std::nullopt;
    if (!type)
      fail(t, "text.unknown-type",
           "unknown attribute type " + describe(t) +
               "; expected float, int, string, tensor, graph, sparse_tensor, type_proto or a "
               "plural of one");
    take();
    declared = *type;
    a.set_type(static_cast<AttributeProto::AttributeType>(declared));
  }
  std::optional<Token> note;
  if (peek().kind == Tok::annotation && peek().name.empty()) note = take();
  expect('=', "after the attribute name " + text_string_literal(a.name()));
  if (peek().is('['))
    attribute_list(a, declared, name_token);
  else
    single_value(a, declared);
  if (note) merge_annotation(lex_, *note, a, nesting_left());
}

bool is_list_type(int t) {
  return t == AttributeProto::FLOATS || t == AttributeProto::INTS || t == AttributeProto::STRINGS ||
         t == AttributeProto::TENSORS || t == AttributeProto::GRAPHS ||
         t == AttributeProto::SPARSE_TENSORS || t == AttributeProto::TYPE_PROTOS;
}

int list_of(int single) {
  switch (single) {
    case AttributeProto::FLOAT:
      return AttributeProto::FLOATS;
    case AttributeProto::INT:
      return AttributeProto::INTS;
    case AttributeProto::STRING:
      return AttributeProto::STRINGS;
    case AttributeProto::TENSOR:
      return AttributeProto::TENSORS;
    case AttributeProto::GRAPH:
      return AttributeProto::GRAPHS;
    case AttributeProto::SPARSE_TENSOR:
      return AttributeProto::SPARSE_TENSORS;
    case AttributeProto::TYPE_PROTO:
      return AttributeProto::TYPE_PROTOS;
    default:
      return AttributeProto::UNDEFINED;
  }
}

int single_of(int list) {
  for (int s :
       {AttributeProto::FLOAT, AttributeProto::INT, AttributeProto::STRING, AttributeProto::TENSOR,
        AttributeProto::GRAPH, AttributeProto::SPARSE_TENSOR, AttributeProto::TYPE_PROTO})
    if (list_of(s) == list) return s;
  return AttributeProto::UNDEFINED;
}

void append_value(AttributeProto& a, AttributeProto& v) {
  switch (v.type()) {
    case AttributeProto::FLOAT:
      return a.add_floats(v.f());
    case AttributeProto::INT:
      return a.add_ints(v.i());
    case AttributeProto::STRING:
      return a.add_strings(std::move(*v.mutable_s()));
    case AttributeProto::TENSOR:
      return a.mutable_tensors()->Add(std::move(*v.mutable_t()));
    case AttributeProto::GRAPH:
      return a.mutable_graphs()->Add(std::move(*v.mutable_g()));
    case AttributeProto::SPARSE_TENSOR:
      return a.mutable_sparse_tensors()->Add(std::move(*v.mutable_sparse_tensor()));
    case AttributeProto::TYPE_PROTO:
      return a.mutable_type_protos()->Add(std::move(*v.mutable_tp()));
    default:
      break;
  }
}

void Parser::attribute_list(AttributeProto& a, int declared, const Token& name_token) {
  const Token open = take();  // '['
  Nesting nest(*this, 1, open);
  const std::string attr = text_string_literal(a.name());
  if (declared != AttributeProto::UNDEFINED && !is_list_type(declared))
    fail(open, "text.attribute-type",
         "attribute " + attr + " is declared " + attribute_type_name(declared) +
             " but its value is a list");
  if (accept(']')) {
    if (declared == AttributeProto::UNDEFINED)
      fail(name_token, "text.attribute-type",
           "the empty list of attribute " + attr + " needs a type: write " + attr +
               ": ints = [] "
               "(or floats, strings, ...)");
    return;
  }
  int element = declared == AttributeProto::UNDEFINED ? 0 : single_of(declared);
  do {
    const Token at = peek();
    AttributeProto v;
    // Undeclared, the first value sets the kind; after a float an integer still reads as one.
    const bool fixed = declared != AttributeProto::UNDEFINED || element == AttributeProto::FLOAT;
    single_value(v, fixed ? element : 0);
    if (v.has_ref_attr_name())
      fail(at, "text.attribute-type", "a reference (@name) cannot be an element of a list");
    if (element == 0) element = v.type();
    if (v.type() != element)
      fail(at, "text.attribute-type",
           "list of attribute " + attr + " mixes " + attribute_type_name(element) + " and " +
               attribute_type_name(v.type()) + " values" +
               (element == AttributeProto::INT ? " (declare : floats to read integers as floats)"
                                               : ""));
    append_value(a, v);
  } while (accept(','));
  expect(']', "to close the list value of attribute " + attr);
  a.set_type(static_cast<AttributeProto::AttributeType>(list_of(element)));
}

// One value; its kind decides the attribute type, which must agree with `expected` (an int
// is read as a float when a float is expected, as in the official parser).
void Parser::single_value(AttributeProto& v, int expected_type) {
  const Token t = peek();
  const bool want_float = expected_type == AttributeProto::FLOAT;
  int got = 0;
  if (t.is('@')) {
    take();
    v.set_ref_attr_name(quotable("the name of the referenced attribute"));
    return;
  }
  if (t.kind == Tok::integer && !want_float) {
    v.set_i(parse_int64(lex_, take()));
    got = AttributeProto::INT;
  } else if (t.kind == Tok::integer || t.kind == Tok::real ||
             (t.kind == Tok::ident && is_float_word(t.text)) ||
             (t.kind == Tok::hex && want_float)) {
    v.set_f(parse_float(lex_, take()));
    got = AttributeProto::FLOAT;
  } else if (t.kind == Tok::hex) {
    fail(t, "text.attribute-type",
         "a bit pattern is a float value: declare the attribute's type as float or floats");
  } else if (t.kind == Tok::string && !peek(1).is('(')) {
    v.set_s(take().value);
    got = AttributeProto::STRING;
  } else if (t.is('(') || t.kind == Tok::string || (t.kind == Tok::ident && !at_type())) {
    graph(*v.mutable_g());
    got = AttributeProto::GRAPH;
  } else if (t.kind == Tok::ident || t.is_raw("type")) {
    TypeProto type_value;
    type(type_value);
    const Token& n = peek();
    if (t.kind == Tok::ident && (n.is('{') || n.is('=') || n.kind == Tok::ident ||
                                 n.kind == Tok::string || n.is_ext("raw"))) {
      tensor_from_type(*v.mutable_t(), type_value, t);
      if (at_name()) v.mutable_t()->set_name(quotable("a tensor name"));
      accept('=');
      tensor_data(*v.mutable_t());
      got = AttributeProto::TENSOR;
    } else {
      *v.mutable_tp() = std::move(type_value);
      got = AttributeProto::TYPE_PROTO;
    }
  } else if (t.is_ext("sparse")) {
    sparse(*v.mutable_sparse_tensor());
    got = AttributeProto::SPARSE_TENSOR;
  } else if (t.is_raw("tensor")) {
    parse_raw_entity(lex_, take(), *v.mutable_t(), nesting_left());
    got = AttributeProto::TENSOR;
  } else {
    expected("an attribute value", t);
  }
  if (is_list_type(expected_type))
    fail(t, "text.attribute-type",
         "the attribute is declared " + attribute_type_name(expected_type) +
             ": its value is a list, [...]");
  if (expected_type != AttributeProto::UNDEFINED && expected_type != got)
    fail(t, "text.attribute-type",
         "the value is " + attribute_type_name(got) + " but the attribute is declared " +
             attribute_type_name(expected_type));
  v.set_type(static_cast<AttributeProto::AttributeType>(got));
}

// ---- tensors --------------------------------------------------------------------------------

// type name? (=)? data: a tensor written as a value (attribute, sparse part).
void Parser::tensor_value(TensorProto& t) {
  if (peek().is_raw("tensor")) {
    parse_raw_entity(lex_, take(), t, nesting_left());
    return;
  }
  const Token at = peek();
  TypeProto type_value;
  if (!at_type()) expected("a tensor (a type, then its data)", at);
  type(type_value);
  tensor_from_type(t, type_value, at);
  if (at_name()) t.set_name(quotable("a tensor name"));
  accept('=');
  tensor_data(t);
}

// data_type and dims from a tensor type with numeric dims.
void Parser::tensor_from_type(TensorProto& t, const TypeProto& type_value, const Token& at) {
  if (!type_value.has_tensor_type() || !type_value.tensor_type().has_elem_type())
    fail(at, "text.tensor-type", "a tensor needs a tensor type such as float[2,3]");
  const auto& tt = type_value.tensor_type();
  t.set_data_type(tt.elem_type());
  if (!tt.has_shape())
    fail(at, "text.tensor-type",
         "a tensor needs its dims: write float for a scalar, float[2,3] for a matrix (float[] "
         "means rank unknown)");
  for (const auto& d : tt.shape().dim()) {
    if (!d.has_dim_value())
      fail(at, "text.tensor-type", "a tensor's dims must be numbers, not names or ?");
    t.add_dims(d.dim_value());
  }
}

// {typed values} | [external data pairs] | %raw {values} | %raw "base64", then %{...}.
void Parser::tensor_data(TensorProto& t) {
  const Token& d = peek();
  if (d.is('{')) {
    typed_values(t);
  } else if (d.is('[')) {
    pairs(*t.mutable_external_data());
    t.set_data_location(TensorProto::EXTERNAL);
  } else if (d.is_ext("raw")) {
    take();
    if (peek().kind == Tok::string) {
      const Token b = take();
      auto bytes = base64_decode(b.value);
      if (!bytes) fail(b, "text.bad-base64", "%raw \"...\" must hold base64 bytes");
      t.set_raw_data(std::move(*bytes));
    } else {
      raw_values(t);
    }
  } else {
    expected("tensor data: {values}, [external data], %raw {values} or %raw \"base64\"", d);
  }
  maybe_annotation(t);
}

DataType tensor_dtype(const TensorProto& t) {
  return static_cast<DataType>(t.data_type());
}

// {v, v, ...} into the typed field the element type uses, as stored; or {%npz "member"}.
void Parser::typed_values(TensorProto& t) {
  take();  // '{'
  if (peek().is_ext("npz")) {
    const Token at = take();
    if (peek().kind != Tok::string) expected("a sidecar member name as a string", peek());
    encode_typed(sidecar_member(at, take().value, t), t);
    expect('}', "after the sidecar reference");
    return;
  }
  if (accept('}')) return;
  const DataType dt = tensor_dtype(t);
  const int field = typed_field_number(dt);
  do {
    const Token v = take();
    switch (field) {
      case TensorProto::kFloatDataFieldNumber:
        t.add_float_data(parse_float(lex_, v));
        break;
      case TensorProto::kDoubleDataFieldNumber:
        t.add_double_data(parse_double(lex_, v));
        break;
      case TensorProto::kInt64DataFieldNumber:
        t.add_int64_data(parse_int64(lex_, v));
        break;
      case TensorProto::kUint64DataFieldNumber:
        t.add_uint64_data(parse_uint64(lex_, v));
        break;
      case TensorProto::kStringDataFieldNumber:
        if (v.kind != Tok::string) expected("a string", v);
        t.add_string_data(v.value);
        break;
      default:
        t.add_int32_data(static_cast<int32_t>(
            parse_int_in(lex_, v, INT32_MIN, INT32_MAX, "an int32_data entry")));
        break;
    }
  } while (accept(','));
  expect('}', "to close the tensor's values");
}

// %raw {v, ...}: exactly one value per element (two per complex), stored as raw_data.
void Parser::raw_values(TensorProto& t) {
  const Token open = expect('{', "after %raw");
  const DataType dt = tensor_dtype(t);
  if (dt == DataType::string)
    fail(open, "text.tensor-type", "string tensors keep their values in string_data: write {...}");
  if (peek().is_ext("npz")) {
    const Token at = take();
    if (peek().kind != Tok::string) expected("a sidecar member name as a string", peek());
    TensorProto tmp;
    tensor_to_proto(sidecar_member(at, take().value, t), tmp);
    t.set_raw_data(std::move(*tmp.mutable_raw_data()));
    expect('}', "after the sidecar reference");
    return;
  }
  const Shape shape(t.dims().begin(), t.dims().end());
  const auto n = element_count(shape);
  const std::size_t left = lex_.source().size() - open.offset;
  // Every value takes at least two characters, so a count past that cannot be right; checking
  // first keeps `float[1000000000000] %raw {}` from allocating.
  if (!n || *n < 0 || static_cast<uint64_t>(*n) > left)
    fail(open, "text.value-count",
         "the dims ask for more values than the text holds (or are negative)");
  Tensor value(dt, shape);
  const int64_t slots = value_slots(value);
  int64_t i = 0;
  if (!peek().is('}')) {
    do {
      const Token v = take();
      if (i >= slots)
        fail(v, "text.value-count",
             "too many values: " + std::string(type_name(dt)) + shape_to_string(shape) + " takes " +
                 std::to_string(slots));
      set_element(value, i++, lex_, v);
    } while (accept(','));
  }
  const Token close = expect('}', "to close the tensor's values");
  if (i != slots)
    fail(close, "text.value-count",
         "expected " + std::to_string(slots) + " values for " + std::string(type_name(dt)) +
             shape_to_string(shape) + ", found " + std::to_string(i));
  TensorProto tmp;
  tensor_to_proto(value, tmp);
  t.set_raw_data(std::move(*tmp.mutable_raw_data()));
}

const Tensor& Parser::sidecar_member(const Token& at, const std::string& name,
                                     const TensorProto& t) {
  if (!sidecar_loaded_) {
    if (sidecar_name_.empty())
      fail(at, "text.sidecar",
           "%npz refers to a sidecar, but the model header names none "
           "(%npz: \"model.npz\")");
    if (!options_.load_sidecar)
      fail(at, "text.sidecar",
           "the sidecar " + text_string_literal(sidecar_name_) + " cannot be read here");
    for (auto& m : options_.load_sidecar(sidecar_name_)) sidecar_[m.name] = std::move(m.tensor);
    sidecar_loaded_ = true;
  }
  auto it = sidecar_.find(name);
  if (it == sidecar_.end())
    fail(at, "text.sidecar",
         "the sidecar " + text_string_literal(sidecar_name_) + " has no member " +
             text_string_literal(name));
  const Tensor& m = it->second;
  const Shape dims(t.dims().begin(), t.dims().end());
  if (static_cast<int32_t>(m.dtype()) != t.data_type() || m.shape() != dims)
    fail(at, "text.sidecar",
         "sidecar member " + text_string_literal(name) + " is " +
             std::string(type_name(m.dtype())) + shape_to_string(m.shape()) +
             ", but the tensor is " + std::string(type_name(tensor_dtype(t))) +
             shape_to_string(dims));
  return m;
}

// %sparse[dims] {values: tensor, indices: tensor}
void Parser::sparse(onnx::SparseTensorProto& s) {
  const Token start = take();  // %sparse
  Nesting nest(*this, kTypeCost, start);
  expect('[', "after %sparse");
  if (!accept(']')) {
    do {
      s.add_dims(parse_int64(lex_, take()));
    } while (accept(','));
    expect(']', "to close the sparse tensor's dims");
  }
  expect('{', "to open the sparse tensor's parts");
  if (accept('}')) {
    maybe_annotation(s);
    return;
  }
  std::set<std::string> seen;
  do {
    const Token key = peek();
    if (!key.is_ident("values") && !key.is_ident("indices")) expected("values: or indices:", key);
    take();
    if (!seen.insert(std::string(key.text)).second)
      fail(key, "text.duplicate-name", std::string(key.text) + " is given twice");
    expect(':', "after " + std::string(key.text));
    tensor_value(key.text == "values" ? *s.mutable_values() : *s.mutable_indices());
  } while (accept(','));
  expect('}', "to close the sparse tensor's parts");
  maybe_annotation(s);
}

// ---- whole inputs ---------------------------------------------------------------------------

void Parser::whole_graph(GraphProto& g) {
  graph(g);
  expect_end();
}

void Parser::whole_function(FunctionProto& f) {
  function(f);
  expect_end();
}

void Parser::whole_type(TypeProto& t) {
  type(t);
  expect_end();
}

}  // namespace

void parse_model_text(std::string_view text, ModelProto& model, const TextParseOptions& options) {
  Parser(text, options).model(model);
}

void parse_graph_text(std::string_view text, GraphProto& graph, const TextParseOptions& options) {
  Parser(text, options).whole_graph(graph);
}

void parse_function_text(std::string_view text, FunctionProto& f, const std::string& file) {
  TextParseOptions options;
  options.file = file;
  Parser(text, options).whole_function(f);
}

void parse_type_text(std::string_view text, TypeProto& type, const TextParseOptions& options) {
  Parser(text, options).whole_type(type);
}

}  // namespace onnxtool::text
