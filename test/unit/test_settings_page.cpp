// doc/settings.md must stay true to the code: every MCORECOLL_ variable the library reads has
// a section there with what it accepts, word for word as the code's error messages say it, and
// its default as the library reports it (Config::describe()); the page names nothing else.
#include "catch.hpp"

#include <fstream>
#include <map>
#include <sstream>

#include "decisions/config.hpp"

using namespace mcorecoll;

namespace {

struct Section {
  std::string accepted, default_value;
  int headings = 0;
};

// "### `MCORECOLL_X`" headings, each with its "- accepted: ..." and "- default: ..." lines.
std::map<std::string, Section> read_page(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::map<std::string, Section> page;
  Section* current = nullptr;
  const std::string heading = "### `", accepted = "- accepted: ", fallback = "- default: ";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(heading, 0) == 0) {
      const std::string name = line.substr(heading.size(), line.find('`', heading.size()) - heading.size());
      current = &page[name];
      ++current->headings;
    } else if (line.rfind("#", 0) == 0) {
      current = nullptr;
    } else if (current && line.rfind(accepted, 0) == 0) {
      current->accepted = line.substr(accepted.size());
    } else if (current && line.rfind(fallback, 0) == 0) {
      current->default_value = line.substr(fallback.size());
    }
  }
  return page;
}

// "MCORECOLL_X = value" lines of the defaults, without their comments ("not given" for a
// setting that only acts when given).
std::map<std::string, std::string> defaults() {
  std::map<std::string, std::string> out;
  std::istringstream in(load_config({}).config.describe());
  for (std::string line; std::getline(in, line);) {
    const auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    std::string value = line.substr(eq + 3);
    // "(not given: the table decides)": a setting that only acts when given.
    const bool not_given = value.find("(not given") != std::string::npos;
    value = value.substr(0, std::min(value.find(" ("), value.find("    #")));
    out[line.substr(0, eq)] = not_given ? "not given" : value;
  }
  return out;
}

bool same_value(const std::string& page, const std::string& code) {
  std::uint64_t a = 0, b = 0;
  return page == code || (parse_size(page, &a) && parse_size(code, &b) && a == b);
}

}  // namespace

TEST_CASE("doc/settings.md names every setting the code reads, as the code accepts it", "[config][doc]") {
  const auto page = read_page(std::string(MCORECOLL_SOURCE_ROOT) + "/doc/settings.md");
  const auto code_defaults = defaults();
  std::map<std::string, bool> known;
  for (const SettingSpec& spec : setting_specs()) {
    known[spec.name] = true;
    INFO(spec.name);
    const auto it = page.find(spec.name);
    REQUIRE(it != page.end());
    const Section& section = it->second;
    CHECK(section.headings == 1);
    CHECK(section.accepted == spec.accepted);
    REQUIRE_FALSE(section.default_value.empty());
    // A default the library reports must be on the page, in backticks, first on its line; a
    // setting that acts only when given says "not given".
    if (const auto d = code_defaults.find(spec.name); d != code_defaults.end() && d->second == "not given") {
      CHECK(section.default_value.rfind("not given", 0) == 0);
    } else if (d != code_defaults.end()) {
      INFO("default in the code: " << d->second << "; on the page: " << section.default_value);
      REQUIRE(section.default_value.size() > 2);
      REQUIRE(section.default_value[0] == '`');
      const std::string shown = section.default_value.substr(1, section.default_value.find('`', 1) - 1);
      CHECK(same_value(shown, d->second));
    }
  }
  for (const auto& [name, section] : page) {
    INFO("the page names " << name);
    CHECK(known.count(name) == 1);
  }
}
