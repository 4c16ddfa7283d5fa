#pragma once
// The "Network" page of the network workspace: the fabric the jobs share, drawn from a
// mlforml::NetworkMap (leaves or rail-optimised units, their links to the spines shaded by
// mean utilisation, nodes coloured by job), with the bottleneck named above it
// [docs/MODEL-NETWORK.md section 3: the record `tandem-cli run --out` writes as links.csv].
#include <QWidget>
#include <optional>

#include "mlforml/network_map.h"
#include "ui/mlforml/network_map_layout.h"
#include "ui/widgets/text_fit.h"

class QLabel;

namespace tandem::ui {

/// Caption plus picture. setMap shows a map; setEmptyReason shows why there is none. The
/// picture is laid out for the widget's size at each paint (layOutNetworkMap) and its texts are
/// reported to the text-fit checks (DrawnTextSource).
class NetworkMapView : public QWidget, public DrawnTextSource {
    Q_OBJECT
public:
    explicit NetworkMapView(QWidget* parent = nullptr);
    /// Shows `map`; `racks`: a node is a rack (the nvl72 topology).
    void setMap(const mlforml::NetworkMap& map, bool racks);
    /// Clears the map and shows `reason` in the caption (empty: a plain "computing" line).
    void setEmptyReason(const QString& reason);
    const std::optional<mlforml::NetworkMap>& map() const { return m_map; }
    /// The caption: the bottleneck's name, utilisation and seconds at 100 %, the next busiest
    /// links, and the uplink capacity (plain text).
    QString captionText() const;
    QLabel* caption() const { return m_caption; }
    /// The picture as painted at the current size (in the map area's coordinates).
    NetworkPicture picture() const;
    /// The rectangle the picture is painted in (below the caption).
    QRect mapArea() const;
    QList<DrawnText> drawnTexts() const override;
    QSize minimumSizeHint() const override;
    /// The font the picture is drawn in: the widget's font times chartFontScale() (larger in
    /// presentation mode, like the charts' texts).
    QFont drawingFont() const;
    /// Follows a change of chartFontScale(): new least size, new picture.
    void applyFontScale();

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QLabel* m_caption;
    std::optional<mlforml::NetworkMap> m_map;
    bool m_racks = false;
};

/// The caption of `map` (rich text): "Bottleneck: LINK (role), mean X % (peak Y %), S s at
/// 100 % of T s observed; capacity C GB/s each way; crossed by JOBS", then the next busiest
/// links and the condition.
QString networkCaption(const mlforml::NetworkMap& map);

}  // namespace tandem::ui
