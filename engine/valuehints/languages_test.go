package valuehints_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"querent/engine/sqlite"
	"querent/engine/valuehints"
)

// languages builds the value index of a small database holding French and
// Chinese values.
func languages(t *testing.T) *valuehints.Index {
	t.Helper()
	path := filepath.Join(t.TempDir(), "langues.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"CREATE TABLE produits (id INTEGER PRIMARY KEY, nom TEXT, categorie TEXT, pays TEXT)",
		"INSERT INTO produits (nom, categorie, pays) VALUES ('Crème brûlée', 'Desserts', 'France'), ('Pâte à tartiner', 'Épicerie', 'Italie'), ('Café moulu', 'Boissons', 'Côte d''Ivoire'), ('Thé vert', 'Boissons', 'Chine'), ('Crème fraîche', 'Crèmerie', 'France')",
		"CREATE TABLE 客户 (编号 INTEGER PRIMARY KEY, 姓名 TEXT, 城市 TEXT)",
		"INSERT INTO 客户 (姓名, 城市) VALUES ('王伟', '北京'), ('李娜', '上海市浦东新区'), ('张敏', '广州'), ('刘洋', '北京'), ('陈静', '深圳')",
		"CREATE TABLE artistes (nom TEXT)",
		"INSERT INTO artistes VALUES ('AC/DC'), ('Édith Piaf'), ('Stromae')",
	} {
		if _, err := raw.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	raw.Close()
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	vi, err := valuehints.BuildIndex(context.Background(), db, nil, valuehints.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return vi
}

// TestHintsInFrenchAndChinese: a Chinese question, written without spaces,
// finds the stored values it names; a French one finds them through its
// accents, its elisions (l', d') and its small words.
func TestHintsInFrenchAndChinese(t *testing.T) {
	vi := languages(t)
	for _, c := range []struct{ question, want string }{
		{"北京有多少客户？", `"客户"."城市" = '北京'`},
		{"上海市浦东新区的客户叫什么名字", `"客户"."城市" = '上海市浦东新区'`},
		{"王伟住在哪个城市", `"客户"."姓名" = '王伟'`},
		{"combien de ventes de creme brulee ?", "produits.nom = 'Crème brûlée'"},
		{"les produits de Côte d’Ivoire", "produits.pays = 'Côte d''Ivoire'"},
		{"les chansons de l'artiste edith piaf", "artistes.nom = 'Édith Piaf'"},
		{"quels sont les albums d'AC/DC ?", "artistes.nom = 'AC/DC'"},
		{"la catégorie épicerie", "produits.categorie = 'Épicerie'"},
	} {
		hs := vi.Hints(c.question, 5)
		var got []string
		for _, h := range hs {
			got = append(got, h.String())
		}
		if !strings.Contains(strings.Join(got, "\n"), c.want) {
			t.Errorf("%q: hints %q, want one with %s", c.question, got, c.want)
		}
	}
	// Small words alone make no hint.
	if hs := vi.Hints("combien de produits par catégorie ?", 5); len(hs) != 0 {
		t.Errorf("hints for small words: %v", hs)
	}
}
