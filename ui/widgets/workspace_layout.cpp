#include "widgets/workspace_layout.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace tandem::ui {

QSplitter* weightedSplitter(Qt::Orientation orientation, QWidget* parent,
                            const QList<QWidget*>& widgets, const QList<int>& weights) {
    auto* s = new QSplitter(orientation, parent);
    for (QWidget* w : widgets) s->addWidget(w);
    QList<int> sizes;
    for (qsizetype i = 0; i < weights.size(); ++i) {
        s->setStretchFactor(static_cast<int>(i), weights[i]);
        sizes << 1000 * weights[i];  // missing space is shared by these weights
    }
    s->setSizes(sizes);
    s->setChildrenCollapsible(false);
    return s;
}

void layOutWorkspace(QWidget* workspace, QWidget* panel, QTabWidget* pages, QLabel* status) {
    auto* layout = new QHBoxLayout(workspace);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(workspace);
    scroll->setWidget(panel);
    scroll->setWidgetResizable(true);
    scroll->setFixedWidth(290);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(scroll);

    pages->setDocumentMode(true);
    auto* right = new QWidget(workspace);
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    rl->setSpacing(2);
    rl->addWidget(pages, 1);
    status->setWordWrap(true);
    rl->addWidget(status);
    layout->addWidget(right, 1);
}

}  // namespace tandem::ui
