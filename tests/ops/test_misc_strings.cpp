// SPDX-License-Identifier: Apache-2.0
// StringConcat, StringSplit, StringNormalizer, RegexFullMatch, TfIdfVectorizer: edge cases
// (empty strings and tensors, whitespace, maxsplit, UTF-8 case mapping, RE2 spellings, n-grams
// with skips, the weighting modes) and inference.
#include <doctest/doctest.h>

#include "tests/ops/test_misc_support.h"

using namespace onnxtool;
using namespace onnxtool::test::misc;

namespace {

std::string model(int opset, const std::string& body) {
  return "<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" + body;
}

std::vector<std::string> strings_of(const Value& v) {
  return v.tensor().strings();
}

}  // namespace

TEST_CASE("StringConcat broadcasts, scalars included") {
  const std::string m =
      model(20, "g (string[2,1] a, string[3] b) => (string[2,3] c) { c = StringConcat (a, b) }");
  auto out = run(m, {{"a", strs({2, 1}, {"x", "y"})}, {"b", strs({3}, {"1", "", "3"})}});
  CHECK(strings_of(out[0]) == std::vector<std::string>{"x1", "x", "x3", "y1", "y", "y3"});
  CHECK(infer(m).at("c") == "string[2,3]");
  const std::string s =
      model(20, "g (string a, string b) => (string c) { c = StringConcat (a, b) }");
  CHECK(strings_of(run(s, {{"a", strs({}, {"é"})}, {"b", strs({}, {"ß"})}})[0]) ==
        std::vector<std::string>{"éß"});
}

TEST_CASE("StringSplit: delimiter, whitespace runs, maxsplit, padding, empty input") {
  const std::string m =
      model(20, R"(g (string[3] x) => (string[3,?] y, int64[3] n, string[3,?] w, int64[3] wn) {
    y, n = StringSplit <delimiter = ",", maxsplit = 1> (x)
    w, wn = StringSplit (x)
  })");
  auto out = run(m, {{"x", strs({3}, {"a,b,c", "", "  lead  and trail "})}});
  CHECK(out[0].tensor().shape() == Shape{3, 2});
  CHECK(strings_of(out[0]) ==
        std::vector<std::string>{"a", "b,c", "", "", "  lead  and trail ", ""});
  CHECK(vals(out[1].tensor()) == std::vector<double>{2, 1, 1});
  CHECK(strings_of(out[2]) ==
        std::vector<std::string>{"a,b,c", "", "", "", "", "", "lead", "and", "trail"});
  CHECK(vals(out[3].tensor()) == std::vector<double>{1, 0, 3});
  const auto t = infer(m);
  CHECK(t.at("y") == "string[3,?]");
  CHECK(t.at("n") == "int64[3]");
  auto empty =
      run(model(20, "g (string[0] x) => (string[0,?] y, int64[0] n) { y, n = StringSplit (x) }"),
          {{"x", strs({0}, {})}});
  CHECK(empty[0].tensor().shape() == Shape{0, 0});
}

TEST_CASE("StringNormalizer: stopwords with and without case, UTF-8 case mapping, all dropped") {
  const std::string m = model(10, R"(g (string[1,4] x) => (string[1,?] y, string[1,?] z) {
    y = StringNormalizer <stopwords = ["the"], case_change_action = "UPPER"> (x)
    z = StringNormalizer <stopwords = ["the", "ÉTÉ", "b", "a"], is_case_sensitive = 1, case_change_action = "LOWER"> (x)
  })");
  auto out = run(m, {{"x", strs({1, 4}, {"The", "été", "a", "b"})}});
  CHECK(strings_of(out[0]) == std::vector<std::string>{"ÉTÉ", "A", "B"});
  CHECK(out[0].tensor().shape() == Shape{1, 3});
  CHECK(strings_of(out[1]) == std::vector<std::string>{"the", "été"});
  auto none = run(
      model(10,
            "g (string[2] x) => (string[?] y) { y = StringNormalizer <stopwords = [\"a\"]> (x) }"),
      {{"x", strs({2}, {"a", "A"})}});
  CHECK(none[0].tensor().shape() == Shape{1});
  CHECK(strings_of(none[0]) == std::vector<std::string>{""});
  CHECK(run_error(model(10, "g (string[2,2] x) => (string[?] y) { y = StringNormalizer (x) }"),
                  {{"x", strs({2, 2}, {"a", "b", "c", "d"})}})
            .find("[C] or [1, C]") != std::string::npos);
}

TEST_CASE("RegexFullMatch: full matches, RE2 flags and named groups, bad patterns") {
  const std::string m = model(20, R"(g (string[3] x) => (bool[3] a, bool[3] b) {
    a = RegexFullMatch <pattern = "(?i)ab+c"> (x)
    b = RegexFullMatch <pattern = "(?P<first>a)\\w*\\z"> (x)
  })");
  auto out = run(m, {{"x", strs({3}, {"ABBC", "abcd", "xabc"})}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{1, 0, 0});
  CHECK(vals(out[1].tensor()) == std::vector<double>{0, 1, 0});
  CHECK(infer(m).at("a") == "bool[3]");
  CHECK(
      run_error(
          model(20, "g (string[1] x) => (bool[1] a) { a = RegexFullMatch <pattern = \"(\"> (x) }"),
          {{"x", strs({1}, {"a"})}})
          .find("pattern") != std::string::npos);
}

TEST_CASE("TfIdfVectorizer: strings, skips, IDF and TFIDF weights, batches") {
  const std::string m =
      model(9, R"(g (string[2,4] x) => (float[2,3] tf, float[2,3] idf, float[2,3] tfidf) {
    tf = TfIdfVectorizer <mode = "TF", min_gram_length = 1, max_gram_length = 2, max_skip_count = 1, ngram_counts = [0, 2], ngram_indexes = [0, 1, 2], pool_strings = ["a", "b", "a", "b"]> (x)
    idf = TfIdfVectorizer <mode = "IDF", min_gram_length = 1, max_gram_length = 2, max_skip_count = 1, ngram_counts = [0, 2], ngram_indexes = [0, 1, 2], pool_strings = ["a", "b", "a", "b"], weights = [2.0, 3.0, 4.0]> (x)
    tfidf = TfIdfVectorizer <mode = "TFIDF", min_gram_length = 1, max_gram_length = 2, max_skip_count = 1, ngram_counts = [0, 2], ngram_indexes = [0, 1, 2], pool_strings = ["a", "b", "a", "b"], weights = [2.0, 3.0, 4.0]> (x)
  })");
  // Row 0 "a a b b": a x2, b x2, (a,b) at (1,2) skip 0, (0,2) and (1,3) skip 1 -> 3.
  auto out = run(m, {{"x", strs({2, 4}, {"a", "a", "b", "b", "b", "c", "c", "c"})}});
  check_close(out[0].tensor(), {2, 3}, {2, 2, 3, 0, 1, 0});
  check_close(out[1].tensor(), {2, 3}, {2, 3, 4, 0, 3, 0});
  check_close(out[2].tensor(), {2, 3}, {4, 6, 12, 0, 3, 0});
  CHECK(infer(m).at("tf") == "float[2,3]");
  CHECK(run_error(model(9, R"(g (int64[3] x) => (float[2] y) {
    y = TfIdfVectorizer <mode = "TF", min_gram_length = 1, max_gram_length = 1, max_skip_count = 0, ngram_counts = [0], ngram_indexes = [0, 1], pool_int64s = [1, 2, 3]> (x)
  })"),
                  {{"x", i64({3}, {1, 2, 3})}})
            .find("ngram_indexes") != std::string::npos);
}
